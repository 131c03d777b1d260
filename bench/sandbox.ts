/**
 * `npm run bench:sandbox`: cold-run latency of one trivial module per sandbox adapter available
 * here, beside plain `node -e`. Every run is a fresh process (and, for bwrap, fresh namespaces),
 * so this is the fixed cost the `run-code` tool adds before the agent's code does anything.
 *
 * Then how far past its deadline an endless loop comes back (`timeoutMs` 1 s, local adapter): the
 * design promises within 3 s, which the tests check only as `timedOut: true` (no stopwatch there).
 *
 * BENCH_RUNS=n changes the number of runs per variant (default 50).
 */
import './lib/quiet.ts'
import { execFile, execFileSync } from 'node:child_process'
import os from 'node:os'
import { DockerSandboxAdapter } from '#server/sandbox/docker.ts'
import { usableBwrap } from '#server/sandbox/host-tools.ts'
import { LocalChildProcessAdapter } from '#server/sandbox/local-child-process.ts'
import { runCode, scrubbedEnv } from '#server/sandbox/run-code.ts'
import type { SandboxAdapter } from '#server/sandbox/adapter.ts'
import { ms, table } from './lib/stats.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 50)
const MODULE = 'console.log(1 + 1)'

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function measure(run: () => Promise<void>): Promise<number[]> {
  await run() // warm the page cache and any per-process probe (bwrap detection)
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    await run()
    times.push(performance.now() - t)
  }
  return times
}

const plainNode = () =>
  new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['-e', MODULE], { env: scrubbedEnv() }, (err) =>
      err ? reject(err) : resolve(),
    ),
  )

function adapterRun(adapter: SandboxAdapter) {
  return async () => {
    const r = await adapter.run({
      moduleSource: MODULE,
      env: scrubbedEnv(),
      timeoutMs: 30_000,
      bridgePort: 0,
    })
    if (r.stdout !== '2\n') throw new Error(`unexpected output: ${r.stdout} ${r.stderr}`)
  }
}

function toolRun(adapter: SandboxAdapter) {
  return async () => {
    const r = await runCode({ code: MODULE }, { adapter, actions: {} })
    if (r.stdout !== '2\n') throw new Error(`unexpected output: ${r.stdout} ${r.stderr}`)
  }
}

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false
  }
}

const variants: [string, () => Promise<void>][] = [
  ['plain `node -e`', plainNode],
  ['local, permission model only (adapter.run)', adapterRun(new LocalChildProcessAdapter({ bwrap: 'off' }))],
]
if (await usableBwrap()) {
  const local = new LocalChildProcessAdapter()
  variants.push(['local, bwrap + permission model (adapter.run)', adapterRun(local)])
  variants.push(['local, bwrap: whole run-code (bridge + wrapper)', toolRun(local)])
} else console.log('bubblewrap is not usable here: the bwrap variants are left out')
if (dockerAnswers()) variants.push(['docker (adapter.run)', adapterRun(new DockerSandboxAdapter())])
else console.log('docker: `docker info` failed (no daemon): the Docker adapter is left out')

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')
console.log(
  `${RUNS} cold runs each of \`${MODULE}\`; ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}`,
)
console.log(`load average before: ${load()}`)
const rows: string[][] = []
for (const [name, run] of variants) {
  const times = await measure(run)
  rows.push([name, ms(percentile(times, 50)), ms(percentile(times, 95)), ms(Math.max(...times))])
  console.log(`  done: ${name}`)
}
const TIMEOUT_MS = 1_000
const overshoot: number[] = []
const looping = new LocalChildProcessAdapter()
for (let i = 0; i < Math.min(RUNS, 10); i++) {
  const t = performance.now()
  const r = await looping.run({
    moduleSource: 'while (true) {}',
    env: scrubbedEnv(),
    timeoutMs: TIMEOUT_MS,
    bridgePort: 0,
  })
  if (!r.timedOut) throw new Error('the endless loop did not time out')
  overshoot.push(performance.now() - t - TIMEOUT_MS)
}
console.log(`load average after: ${load()}\n`)
console.log(table(['variant', 'p50', 'p95', 'max'], rows))
console.log(
  `\nendless loop, timeoutMs ${TIMEOUT_MS}: back ${ms(percentile(overshoot, 50))} (p50), ` +
    `${ms(Math.max(...overshoot))} (max) after the deadline over ${overshoot.length} runs (promised: < 3 s)`,
)
