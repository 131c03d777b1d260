/**
 * `npm run bench:harness`: how long a job run takes from Run now to its first model call, with the
 * built-in agent and with Claude Code (sandbox + relay + CLI start-up), on one server with the fake
 * model (OpenCode too, when `npm run harness:install opencode` put it here), and with each CLI in a
 * `provider: docker` environment (container + relay + CLI) where a Docker engine answers (the test
 * image, scripts/sandbox-test-image.sh). RUNS runs of each, one at a time, after WARMUP. Prints
 * p50/p95 and writes them, with `uptime`, to bench/out/harness-<time>.md (bench/RESULTS.md has the figures of record). Needs `npm run build`,
 * `npm run harness:install claude-code` and a Postgres (TEST_DATABASE_URL, else the embedded one).
 */
import './lib/quiet.ts'
import { writeBenchOutput } from './lib/out.ts'
import { execSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { claudeCode } from '../server/harness/claude-code.ts'
import { openCode } from '../server/harness/opencode.ts'
import { ApiClient } from '../tests/support/api-client.ts'
import { dockerForTests } from '../tests/support/docker.ts'
import { startFakeAnthropic } from '../tests/support/fake-anthropic.ts'
import { spawnServer } from '../tests/support/spawn-server.ts'
import { ms, table } from './lib/stats.ts'

const RUNS = Number(process.env.BENCH_HARNESS_RUNS ?? 20)
const WARMUP = 2

if (!claudeCode.locate()) throw new Error('Claude Code is not installed: npm run harness:install claude-code')
const docker = await dockerForTests()
const fake = await startFakeAnthropic({ fallback: { text: 'done' } })
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-harness-'))
chmodSync(dir, 0o711) // the sandbox user enters it
// The compiled server (`npm run build`), as production runs it.
const server = await spawnServer({
  ANTHROPIC_API_KEY: 'sk-bench-harness',
  ANTHROPIC_BASE_URL: fake.baseURL,
  ENVIRONMENTS_DIR: path.join(dir, 'environments'),
  ...(docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {}),
})
const c = new ApiClient(server.baseUrl)
await c.signUp('Bench Person', `bench-${Date.now()}@example.com`)
const R = '/_agent-native/resources'
await c.put(`${R}/personal/environments/bench.md`, '---\nprovider: local\n---\nBench.\n')
await c.put(`${R}/personal/environments/bench-docker.md`, '---\nprovider: docker\n---\nBench.\n')

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function settle(client: ApiClient, runId: string) {
  for (;;) {
    const run = (await client.get(`/_agent-native/runs/${runId}`)).body.run
    if (!['queued', 'running'].includes(run.status)) return run
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function measure(
  label: string,
  harness: 'builtin' | 'claude-code' | 'opencode',
  environment: 'bench' | 'bench-docker' = 'bench',
) {
  const name = environment === 'bench' ? `bench-${harness}` : `bench-${harness}-docker`
  const job = await c.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 1 1 *',
    instructions: `${name}: say done.`,
    environment,
    harness,
  })
  const samples: number[] = []
  for (let i = 0; i < WARMUP + RUNS; i++) {
    let first = 0
    const token = `${name}:`
    fake.replyWhen(token, () => {
      first ||= performance.now()
      return { text: 'done' }
    })
    const start = performance.now()
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    const run = await settle(c, started.body.run.id)
    if (run.status !== 'success') throw new Error(`${label}: run ${run.status}: ${run.error}`)
    if (i >= WARMUP) samples.push(first - start)
  }
  console.log(`${label}: done`)
  return { label, p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

const rows = [
  await measure('builtin agent', 'builtin'),
  await measure('claude-code (sandbox + relay + CLI)', 'claude-code'),
  ...(openCode.locate() ? [await measure('opencode (sandbox + relay + CLI)', 'opencode')] : []),
  ...(docker.ok
    ? [await measure('claude-code, docker (container + relay + CLI)', 'claude-code', 'bench-docker')]
    : []),
  ...(docker.ok && openCode.locate()
    ? [await measure('opencode, docker (container + relay + CLI)', 'opencode', 'bench-docker')]
    : []),
]
await server.stop()
await fake.close()
rmSync(dir, { recursive: true, force: true })

const output = table(
  ['agent', 'Run now → first model call p50', 'p95'],
  rows.map((r) => [r.label, ms(r.p50), ms(r.p95)]),
)
const uptime = execSync('uptime').toString().trim()
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`
console.log(`\n${output}\n${machine}\n${uptime}`)

const report = writeBenchOutput(
  'harness',
  'md',
  `## Harness: Run now to the first model call (${new Date().toISOString().slice(0, 16)}Z)\n\n` +
    `\`npm run bench:harness\`: ${RUNS} runs of each, one at a time, after ${WARMUP} warm-up runs; the fake ` +
    `model answers at once. Claude Code ${claudeCode.install.version}, OpenCode ${openCode.install.version}. Machine: ${machine}. Load: \`${uptime}\`.\n\n` +
    `${output}\n\nThe harness figure includes opening the environment, the run's endpoint and socket, the ` +
    'projection, setpriv + prlimit + bwrap, the relay and the CLI start-up; in a Docker environment, ' +
    '`docker run` of the container, the node relay and the CLI start-up instead of the sandbox' +
    `${docker.ok ? '' : ` (no Docker rows: ${docker.why})`}.\n`,
)
console.log(`figures in ${report}`)
process.exit(0)
