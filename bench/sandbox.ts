/**
 * `npm run bench:sandbox`: cold-run latency of one trivial module per sandbox adapter available
 * here, beside plain `node -e`. Every run is a fresh process (and, for bwrap, fresh namespaces;
 * for Docker, a fresh container), so this is the fixed cost the `run-code` tool adds before the
 * agent's code does anything. Then the same for one environment command (`true`): local
 * (sandbox-runtime) beside `provider: docker` with no hosts and with hosts (the proxy relay).
 * Docker runs use SANDBOX_DOCKER_IMAGE when it is present, else the local test image
 * (scripts/sandbox-test-image.sh).
 *
 * Then how far past its deadline an endless loop comes back (`timeoutMs` 1 s, local adapter): the
 * design promises within 3 s, which the tests check only as `timedOut: true` (no stopwatch there).
 *
 * BENCH_RUNS=n changes the number of runs per variant (default 50), BENCH_DOCKER_RUNS=n those of
 * the Docker variants (default 30: each is a container start).
 */
import './lib/quiet.ts'
import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runCommand } from '#server/environments/exec/exec.ts'
import { prepareFolder } from '#server/environments/exec/identity.ts'
import { initSandboxRuntime } from '#server/environments/exec/sandbox-runtime.ts'
import { dockerExec } from '#server/environments/providers/providers-docker.ts'
import { DockerSandboxAdapter } from '#server/sandbox/docker.ts'
import { usableBwrap } from '#server/sandbox/host-tools.ts'
import { LocalChildProcessAdapter } from '#server/sandbox/local-child-process.ts'
import { runCode, scrubbedEnv } from '#server/sandbox/run-code.ts'
import type { SandboxAdapter } from '#server/sandbox/adapter.ts'
import { ms, table } from './lib/stats.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 50)
const DOCKER_RUNS = Number(process.env.BENCH_DOCKER_RUNS ?? 30)
const MODULE = 'console.log(1 + 1)'

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function measure(run: () => Promise<void>, runs = RUNS): Promise<number[]> {
  await run() // warm the page cache and any per-process probe (bwrap detection)
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
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

/** The image the Docker variants run: the configured one when present, else the local test image. */
function dockerImage(): string {
  const configured = process.env.SANDBOX_DOCKER_IMAGE ?? 'node:22-slim'
  try {
    execFileSync('docker', ['image', 'inspect', configured], { stdio: 'ignore' })
    return configured
  } catch {
    execFileSync(path.resolve(import.meta.dirname, '../scripts/sandbox-test-image.sh'), { stdio: 'inherit' })
    return 'clockwork-test-sandbox:latest'
  }
}

type Variant = { name: string; run: () => Promise<void>; docker?: boolean }
const variants: Variant[] = [
  { name: 'plain `node -e`', run: plainNode },
  {
    name: 'local, permission model only (adapter.run)',
    run: adapterRun(new LocalChildProcessAdapter({ bwrap: 'off' })),
  },
]
if (await usableBwrap()) {
  const local = new LocalChildProcessAdapter()
  variants.push({ name: 'local, bwrap + permission model (adapter.run)', run: adapterRun(local) })
  variants.push({ name: 'local, bwrap: whole run-code (bridge + wrapper)', run: toolRun(local) })
} else console.log('bubblewrap is not usable here: the bwrap variants are left out')

// One environment command, `true`, as run_command runs it (quota walk included).
const base = mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-env-'))
chmodSync(base, 0o711)
const root = path.join(base, 'environments', 'bench')
await prepareFolder(root)
const checked = (result: { exitCode: number | null; stderr: string }) => {
  if (result.exitCode !== 0) throw new Error(`true failed: ${result.stderr}`)
}
const envVariants: Variant[] = []
try {
  await initSandboxRuntime()
  envVariants.push({
    name: 'environment command, local (sandbox-runtime)',
    run: async () => checked(await runCommand({ root }, 'true')),
  })
} catch (err) {
  console.log(`sandbox-runtime cannot start here (${(err as Error).message}): the local command is left out`)
}

if (dockerAnswers()) {
  const image = dockerImage()
  const docker = new DockerSandboxAdapter({ image })
  variants.push({ name: `docker (adapter.run)`, run: adapterRun(docker), docker: true })
  variants.push({ name: 'docker: whole run-code (bridge + wrapper)', run: toolRun(docker), docker: true })
  const opts = { stopKey: 'bench', image }
  envVariants.push({
    name: 'environment command, docker, no hosts',
    run: async () => checked(await dockerExec({ root, allowedHosts: [] }, 'true', opts)),
    docker: true,
  })
  envVariants.push({
    name: 'environment command, docker, hosts (proxy relay)',
    run: async () => checked(await dockerExec({ root, allowedHosts: ['registry.npmjs.org'] }, 'true', opts)),
    docker: true,
  })
  console.log(`docker: image ${image}`)
} else console.log('docker: `docker info` failed (no daemon): the Docker variants are left out')

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')
console.log(
  `${RUNS} cold runs each (${DOCKER_RUNS} for Docker) of \`${MODULE}\` / \`true\`; ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}`,
)
console.log(`load average before: ${load()}`)
const rows: string[][] = []
for (const { name, run, docker } of [...variants, ...envVariants]) {
  const times = await measure(run, docker ? DOCKER_RUNS : RUNS)
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
rmSync(base, { recursive: true, force: true })
process.exit(0) // sandbox-runtime's proxy keeps the loop alive
