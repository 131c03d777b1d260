/**
 * What a harness run keeps of its CLI's output is bounded: the (fake) model answers the real Claude
 * Code CLI with a thousand texts and a hundred commands printing 40 KB each, steered by
 * nothing but the job's instructions. The run's stored transcript, and `GET /runs/:id`, hold at
 * most HARNESS_MAX_PARTS steps and HARNESS_TRANSCRIPT_MAX_CHARS, with a note saying how many were
 * left out; and the server, in its own process, answers health all the while (before, each
 * progress report re-serialised every step so far, on the server's one event loop).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HARNESS_MAX_PARTS,
  HARNESS_PART_MAX_CHARS,
  HARNESS_TRANSCRIPT_MAX_CHARS,
} from '#server/harness/transcript.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import type { FakeAnthropic, FakeBlock } from '#tests/support/fake-anthropic.ts'
import { localHarnessJob } from '#tests/support/harness-runs.ts'
import { HANG_GUARD_MS, healthWhile, spawnHarnessTarget } from '#tests/support/health-probe.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'

const KEY = 'sk-ant-harness-transcript-6160'
/** Short texts: cheap for the model (the run's cap counts what it writes), a step each. */
const TEXTS = 1_000
/** Commands printing 40 KB each (the CLI keeps 30,000 characters of it): free, as the sandbox makes them. */
const COMMANDS = 120

let fake: FakeAnthropic
let server: SpawnedServer
let mallory: ApiClient
let stop: () => Promise<void>

beforeAll(async () => {
  const target = await spawnHarnessTarget(KEY, {
    name: 'Mallory Transcript',
    email: 'mallory-harness-transcript@example.com',
  })
  ;({ fake, server, attacker: mallory, stop } = target)
}, 180_000)

afterAll(async () => stop?.(), 60_000)

describe('a harness run’s transcript', () => {
  it('keeps at most its bounds of a thousand texts and a hundred big outputs, and the server answers all along', async () => {
    const job = await localHarnessJob(mallory, 'box', 'flood')
    const texts: FakeBlock[] = Array.from({ length: TEXTS }, (_, i) => ({ type: 'text', text: `t${i}` }))
    const commands: FakeBlock[] = Array.from({ length: COMMANDS }, (_, i) => ({
      type: 'tool_use',
      name: 'Bash',
      input: { command: `head -c 40000 /dev/zero | tr '\\0' y; echo ${i}`, description: 'print' },
    }))
    fake.replyWhen('Task flood:', { content: [...commands, ...texts] }, { text: 'Done.' })
    const started = await mallory.post(`/_agent-native/jobs/${job.id}/run`)
    expect(started.status).toBe(202)
    const runId = started.body.run.id as string
    const settled = waitForRun(mallory, runId, { timeout: 170_000 })
    // The server does real work on this flood (about 5 MB of output, kept a step at a time), and in a
    // full CI run on two loaded cores one answer can come late without a stall (seen twice on one
    // slow machine). The stall this guards against, every step kept re-serialised at every report,
    // grew with the run: not one late answer but one after another.
    expect(await healthWhile(server.baseUrl, settled, HANG_GUARD_MS, { lateInARow: 2 })).toBeGreaterThan(0)
    await settled

    const res = await fetch(`${server.baseUrl}/_agent-native/runs/${runId}`, {
      headers: { cookie: mallory.cookieHeader },
    })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text.length).toBeLessThan(HARNESS_TRANSCRIPT_MAX_CHARS + 64 * 1024)
    const body = JSON.parse(text)
    const parts = (body.transcript as any[]).filter((m) => m.role === 'assistant').flatMap((m) => m.parts)
    expect(parts.length).toBeLessThanOrEqual(HARNESS_MAX_PARTS + 1)
    for (const part of parts)
      expect(JSON.stringify(part).length).toBeLessThanOrEqual(HARNESS_PART_MAX_CHARS + 512)
    expect(parts.at(-1).text).toMatch(/^\[… \d+ more steps of this run left out/)
  }, 240_000)
})
