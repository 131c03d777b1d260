/**
 * `npm run bench:environments`: per-command overhead of running a command in an environment.
 * 50 `true` commands each way, one at a time: plain `sh -c true`, then runCommand through
 * sandbox-runtime (wrap + setpriv + prlimit + bwrap + seccomp + proxy bridge + quota check), then
 * the bubblewrap fallback. Prints p50/p95 and writes them, with `uptime`, to bench/out/environments-<time>.md.
 * Then the event loop's delay while tenants' work runs: a command making 5,000 files under the
 * file watcher (a find child polled every second), and search_files with `^(a+)+$` over one long
 * line (ripgrep in a child): the server's loop must stay free (issue 25 item 5).
 */
import './lib/quiet.ts'
import { writeBenchOutput } from './lib/out.ts'
import { execSync, spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { runCommand } from '../server/environments/exec/exec.ts'
import { prepareFolder } from '../server/environments/exec/identity.ts'
import { initSandboxRuntime } from '../server/environments/exec/sandbox-runtime.ts'
import { searchFiles } from '../server/environments/exec/search-files.ts'
import { diskScanner } from '../server/environments/watch/watch-disk.ts'
import { pollTree } from '../server/environments/watch/watch-poll.ts'
import { ms, table } from './lib/stats.ts'

const RUNS = 50
const WARMUP = 3

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function time(label: string, run: () => Promise<void>) {
  for (let i = 0; i < WARMUP; i++) await run()
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  console.log(`${label}: done`)
  return { label, p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

const plain = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('sh', ['-c', 'true'], { stdio: 'ignore', env: { PATH: '/usr/bin:/bin' } })
    child.on('error', reject)
    child.on('close', () => resolve())
  })

const base = mkdtempSync(path.join(os.tmpdir(), 'bench-env-'))
chmodSync(base, 0o711)
const root = path.join(base, 'environments', 'bench')
await prepareFolder(root)
const opts = {}
const check = (result: { exitCode: number | null; stderr: string }) => {
  if (result.exitCode !== 0) throw new Error(`true failed in the sandbox: ${result.stderr}`)
}

const initStart = performance.now()
await initSandboxRuntime()
const initMs = performance.now() - initStart

const rows = [
  await time('plain sh -c true', plain),
  await time('sandbox-runtime', async () => check(await runCommand({ root }, 'true', opts))),
  await time('bubblewrap fallback', async () =>
    check(await runCommand({ root }, 'true', { ...opts, mechanism: { kind: 'bwrap', why: 'bench' } })),
  ),
]
/** The event loop's delay (p99, max) while `work` runs. */
async function loopDelay(label: string, work: () => Promise<void>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  await work()
  histogram.disable()
  console.log(`${label}: done`)
  return { label, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 }
}
const loopRows = [
  await loopDelay('command making 5,000 files, watched', async () => {
    const watch = await pollTree(diskScanner(root))
    check(await runCommand({ root }, 'mkdir -p many && cd many && seq 1 5000 | xargs touch', opts))
    await watch.stop()
  }),
  await loopDelay('search_files ^(a+)+$ over one 100 KB line', async () => {
    writeFileSync(path.join(root, 'evil.txt'), `${'a'.repeat(100_000)}!\n`)
    await searchFiles({ root }, { pattern: '^(a+)+$', path: 'evil.txt' })
  }),
]
rmSync(base, { recursive: true, force: true })

const plainP50 = rows[0]!.p50
const output = table(
  ['way', 'p50', 'p95', 'overhead over plain (p50)'],
  rows.map((r) => [r.label, ms(r.p50), ms(r.p95), r === rows[0] ? '—' : ms(r.p50 - plainP50)]),
)
const uptime = execSync('uptime').toString().trim()
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`
const loopOutput = table(
  ['tenant work', 'event-loop delay p99', 'max'],
  loopRows.map((r) => [r.label, ms(r.p99), ms(r.max)]),
)
console.log(
  `\n${output}\n\nsandbox-runtime initialise (once per process): ${ms(initMs)}\n\n${loopOutput}\n${machine}\n${uptime}`,
)

const report = writeBenchOutput(
  'environments',
  'md',
  `## Environments: per-command overhead (${new Date().toISOString().slice(0, 16)}Z)\n\n` +
    `\`npm run bench:environments\`: ${RUNS} \`true\` commands each way, one at a time, after ${WARMUP} warm-up runs.\n` +
    `Machine: ${machine}. Load: \`${uptime}\`.\n\n${output}\n\n` +
    `sandbox-runtime initialise, once per process: ${ms(initMs)}. The sandboxed figures include everything a ` +
    'run_command pays: wrapping, setpriv, prlimit, bwrap (+ seccomp and the proxy bridge for sandbox-runtime), ' +
    'and the disk-usage walk after the command.\n\n' +
    `The server's event loop while tenants' work runs (monitorEventLoopDelay, 10 ms resolution):\n\n${loopOutput}\n`,
)
console.log(`figures in ${report}`)
process.exit(0)
