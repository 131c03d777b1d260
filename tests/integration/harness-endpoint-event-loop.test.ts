/**
 * A harness run's endpoint reads bodies of up to 32 MiB (a long conversation with its files) from
 * whatever runs in the run's sandbox, and parsed them as JSON on the server's one event loop. What
 * parsing costs grows with the values a body holds, not its bytes: 30 MB of `[{},{},…]` is ten
 * million objects. The attack is a command the real Claude Code CLI runs for the (fake) model,
 * posting such a body to the run's own hook and model API; the server runs in its own process and
 * is asked for health again and again while it does, every answer needed (the guard only turns a
 * frozen server into a failure instead of a hang).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HARNESS_LINE_MAX_BYTES } from '#server/harness/lines.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { bashParts, localHarnessJob, postToEndpoint } from '#tests/support/harness-runs.ts'
import { HANG_GUARD_MS, healthWhile, spawnHarnessTarget } from '#tests/support/health-probe.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'

const KEY = 'sk-ant-harness-event-loop-5150'

let fake: FakeAnthropic
let server: SpawnedServer
let mallory: ApiClient
let stop: () => Promise<void>

beforeAll(async () => {
  const target = await spawnHarnessTarget(KEY, {
    name: 'Mallory Harness',
    email: 'mallory-harness-loop@example.com',
  })
  ;({ fake, server, attacker: mallory, stop } = target)
}, 180_000)

afterAll(async () => stop?.(), 60_000)

describe('a harness run’s endpoint keeps the server answering', () => {
  it('while its sandbox posts ten million empty objects to the hook and the model API', async () => {
    const job = await localHarnessJob(mallory, 'box', 'flood')
    // 30,000,003 bytes: under the endpoint's 32 MiB, so only parsing it could refuse it.
    const command = [
      `printf '[' > flat.json`,
      `yes '{},' | head -n 10000000 | tr -d '\\n' >> flat.json`,
      `printf '{}]' >> flat.json`,
      `head -c 15000000 /dev/zero | tr '\\0' '[' > deep.json`,
      `head -c 15000000 /dev/zero | tr '\\0' ']' >> deep.json`,
      postToEndpoint('flat.json', '/hook'),
      postToEndpoint('deep.json', '/hook'),
      postToEndpoint('flat.json', '/v1/messages'),
    ].join(' && ')
    fake.replyWhen('Task flood:', toolUse('Bash', { command, description: 'flood' }), { text: 'Done.' })

    const started = await mallory.post(`/_agent-native/jobs/${job.id}/run`)
    expect(started.status).toBe(202)
    const settled = waitForRun(mallory, started.body.run.id, { timeout: 170_000 })
    expect(await healthWhile(server.baseUrl, settled, HANG_GUARD_MS)).toBeGreaterThan(0)

    const run = await settled
    const [flood] = bashParts(run)
    expect(flood.state, JSON.stringify(flood)).toBe('output-available')
    expect(JSON.stringify(flood.output)).toContain('/hook=400 /hook=400 /v1/messages=400')
  }, 240_000)

  it('while its model provider answers one server-sent line of 50 MB', async () => {
    // A broken or hostile provider (or one huge event): the endpoint joined and split all it held
    // of the line on every chunk, the square of its length, and read it to its end, however long.
    const job = await localHarnessJob(mallory, 'line', 'longline')
    fake.replyWhen('Task longline:', { longLine: 50_000_000 }, { text: 'Done.' })

    const started = await mallory.post(`/_agent-native/jobs/${job.id}/run`)
    expect(started.status).toBe(202)
    const settled = waitForRun(mallory, started.body.run.id, { timeout: 170_000 })
    expect(await healthWhile(server.baseUrl, settled, HANG_GUARD_MS)).toBeGreaterThan(0)

    const run = await settled
    const [long] = fake.requests.filter((r) => r.lineBytes !== undefined)
    await expect.poll(() => long!.aborted).toBe(true)
    // Cut well before its end (what the sockets between held when it was cut was written too).
    expect(long!.lineBytes).toBeLessThan(25_000_000)
    // The call was ended once the line passed the endpoint's bound, and what was read of it metered
    // as output: a million tokens, over the deployment key's cap, which stops the run.
    expect(run.run.usage.outputTokens, JSON.stringify(run.run)).toBeGreaterThan(HARNESS_LINE_MAX_BYTES / 4)
    expect(run.run.error).toMatch(/^Stopped: the run cost \$\d+\.\d+ after model call 1, over/)
  }, 240_000)
})
