/**
 * `npm run bench:tokens`: what a trivial job run costs in model input. Starts the server (from
 * source) against the fake model with token counting on (tests/support/fake-anthropic.ts simulates
 * Anthropic's prompt caching and reports `cache_creation_input_tokens` / `cache_read_input_tokens`),
 * and runs a job whose agent takes three steps: it asks the clock, lists jobs, then answers. Prints
 * each model call's request bytes and tokens (uncached, cache writes, cache reads), the input
 * tokens billed, weighting cache writes and reads as Anthropic bills them for the model (writes
 * 1.25 times an uncached token, reads 0.1 or the model's own factor), and the call's estimated cost.
 * The model is the default AGENT_MODEL (server/env.ts), or AGENT_MODEL from the shell to compare
 * another (`AGENT_MODEL=anthropic:claude-sonnet-4-5 npm run bench:tokens`). The run is made twice: the
 * first finds the cache cold, the second warm (another run within five minutes). Figures go to
 * bench/out/tokens-<time>.json; see bench/RESULTS.md.
 */
import './lib/quiet.ts'
import { writeBenchOutput } from './lib/out.ts'
import { execSync } from 'node:child_process'
import { ApiClient } from '../tests/support/api-client.ts'
import { startFakeAnthropic, toolUse } from '../tests/support/fake-anthropic.ts'
import { spawnServer } from '../tests/support/spawn-server.ts'
import { table } from './lib/stats.ts'
import { parseEnv } from '../server/env.ts'
import { readModelChoice } from '../server/agent/model.ts'
import { CACHE_READ_FACTOR, CACHE_WRITE_FACTOR, estimateCostUsd, findPrice } from '../server/agent/pricing.ts'

const config = parseEnv({ ENV_FILE: 'off', AGENT_MODEL: process.env.AGENT_MODEL })
const model = readModelChoice(config)
const WRITE_WEIGHT = CACHE_WRITE_FACTOR
const READ_WEIGHT = findPrice(model)?.cacheRead ?? CACHE_READ_FACTOR

const fake = await startFakeAnthropic({ fallback: { text: 'Done.' }, countTokens: true })
const server = await spawnServer(
  {
    ANTHROPIC_API_KEY: 'sk-bench-tokens',
    ANTHROPIC_BASE_URL: fake.baseURL,
    AGENT_MODEL: config.AGENT_MODEL,
  },
  undefined,
  'source',
)
type Call = {
  bytes: number
  uncached: number
  written: number
  read: number
  tools: number
  billed: number
  usd: number
}
const runs: { label: string; calls: Call[] }[] = []
try {
  const c = new ApiClient(server.baseUrl)
  await c.signUp('Bench Tokens', `bench-tokens-${Date.now()}@example.com`)
  const job = await c.post('/_agent-native/jobs', {
    name: 'bench-tokens',
    schedule: '0 7 1 1 *',
    instructions: 'bench-tokens: say what time it is and how many jobs I have.',
  })
  if (job.status !== 201) throw new Error(`creating the job: ${JSON.stringify(job.body)}`)
  for (const label of ['first run (cold cache)', 'second run (warm cache)']) {
    fake.requests.length = 0
    fake.replyWhen('bench-tokens:', toolUse('clock', {}), toolUse('manage-jobs', { action: 'list' }), {
      text: 'It is morning; you have one job.',
    })
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    if (started.status !== 202) throw new Error(`run now: ${JSON.stringify(started.body)}`)
    const runId = started.body.run.id as string
    for (;;) {
      const run = (await c.get(`/_agent-native/runs/${runId}`)).body.run
      if (!['queued', 'running'].includes(run.status)) {
        if (run.status !== 'success') throw new Error(`run ${run.status}: ${run.error}`)
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const calls = fake.requests.map((r) => {
      const usage = r.usage!
      const written = usage.cache_creation_input_tokens ?? 0
      const read = usage.cache_read_input_tokens ?? 0
      return {
        bytes: Buffer.byteLength(JSON.stringify(r.body)),
        uncached: usage.input_tokens,
        written,
        read,
        tools: (r.body.tools ?? []).length,
        billed: usage.input_tokens + WRITE_WEIGHT * written + READ_WEIGHT * read,
        usd:
          estimateCostUsd(model, {
            inputTokens: usage.input_tokens + written + read,
            outputTokens: usage.output_tokens,
            cacheReadTokens: read,
            cacheWriteTokens: written,
          }) ?? Number.NaN,
      }
    })
    runs.push({ label, calls })
  }
} finally {
  await server.stop()
  await fake.close()
}

const rows: string[][] = []
for (const run of runs) {
  run.calls.forEach((c, i) =>
    rows.push([
      run.label,
      String(i + 1),
      String(c.tools),
      String(c.bytes),
      String(c.uncached),
      String(c.written),
      String(c.read),
      c.billed.toFixed(0),
      c.usd.toFixed(6),
    ]),
  )
  const sum = (k: keyof Call) => run.calls.reduce((n, c) => n + c[k], 0)
  rows.push([
    run.label,
    'total',
    '',
    String(sum('bytes')),
    String(sum('uncached')),
    String(sum('written')),
    String(sum('read')),
    sum('billed').toFixed(0),
    sum('usd').toFixed(6),
  ])
}
const uptime = execSync('uptime').toString().trim()
console.log(
  `\n${config.AGENT_MODEL}\n` +
    `${table(['run', 'model call', 'tools', 'request bytes', 'uncached in', 'cache write', 'cache read', 'billed in', 'USD'], rows)}\n` +
    `billed in = uncached + ${WRITE_WEIGHT} × cache write + ${READ_WEIGHT} × cache read (tokens ≈ characters / 4)\n${uptime}`,
)
console.log(
  `figures in ${writeBenchOutput('tokens', 'json', JSON.stringify({ model: config.AGENT_MODEL, runs, uptime }, null, 2))}`,
)
process.exit(0)
