/**
 * Every run keeps a copy of its job's instructions (up to 60,000 characters) for RUN_HISTORY_DAYS,
 * and a run whose model call fails costs nobody anything: a member who saved a key that is no key
 * pressed Run now in a loop, each run failing with a 401 within a tenth of a second and storing its
 * 60 KB copy, about half a megabyte a second per job without end (decision 0503). Now a run that
 * ends before the model answered keeps the first 2,000 characters of its copy, and a run a person
 * starts counts its copy towards their USER_MAX_AUDIT_MB_PER_DAY: past it Run now is a 429 that
 * changes nothing. A key the provider refuses with a 401 is paused after its first refusal (decision 0505), so
 * the key here is a real one with no credit left: the provider answers each call with a 400, as
 * free as a 401, and the bound must hold for it all the same.
 * Real HTTP, real Postgres, the real scheduler and Anthropic provider against the fake Messages API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { UNANSWERED_INSTRUCTIONS_KEPT } from '#server/runs/threads.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { NO_CREDIT_ANSWER } from '#tests/support/fake-anthropic.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { waitForRun } from '#tests/support/runs.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const KEY = 'sk-ant-deployment-run-now-allowance'
const NO_CREDIT = 'sk-ant-no-credit-1111111111'
const INSTRUCTIONS = Array.from({ length: 1_000 }, (_, i) => `Step ${i}: ${'check the figures '.repeat(3)}`)
  .join('\n')
  .slice(0, 60_000)

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, scheduler: true, env: { USER_MAX_AUDIT_MB_PER_DAY: '1' } })
  agent.fake.failKey(NO_CREDIT, NO_CREDIT_ANSWER)
}, 240_000)
afterAll(() => agent?.close())

async function longJob(client: ApiClient, name: string): Promise<string> {
  const made = await client.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * *',
    instructions: INSTRUCTIONS,
    enabled: false,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return made.body.job.id
}

const toldText = (run: { transcript: { role: string; parts: { text?: string }[] }[] }) =>
  run.transcript[0]!.parts[0]!.text!

it('a loop of Run now on a key with no credit keeps little of each copy, and stops at the allowance', async () => {
  const client = agent.team.member.client
  const key = await client.request('PUT', '/_agent-native/model-keys', {
    scope: 'personal',
    apiKey: NO_CREDIT,
  })
  expect(key.status).toBe(200)
  const jobId = await longJob(client, 'long-failing')

  let started = 0
  let refused: { status: number; body: any } | undefined
  while (started < 30) {
    const before = await snapshotTables(agent.app.server.db)
    const res = await client.post(`/_agent-native/jobs/${jobId}/run`)
    if (res.status !== 202) {
      refused = res
      expect(await snapshotTables(agent.app.server.db)).toEqual(before)
      break
    }
    started++
    const run = await waitForRun(client, res.body.run.id)
    expect(run.run.status).toBe('error')
    expect(run.run.error).toMatch(/failed \(400\): Your credit balance is too low/)
    // The copy of a run the model never answered: its start, and how much more there was.
    expect(toldText(run)).toBe(
      `${INSTRUCTIONS.slice(0, UNANSWERED_INSTRUCTIONS_KEPT)}\n\n[and ${INSTRUCTIONS.length - UNANSWERED_INSTRUCTIONS_KEPT} ` +
        "more characters of the job's instructions, not kept: this run ended before the model answered]",
    )
  }
  // 1 MiB at about 60 KB a run: seventeen or so, where thirty went before.
  expect(started).toBeGreaterThanOrEqual(15)
  expect(started).toBeLessThanOrEqual(18)
  expect(refused?.status).toBe(429)
  expect(refused?.body.error).toMatchObject({ code: 'quota_exceeded' })
  expect(refused?.body.error.message).toMatch(/the runs you started .*\(USER_MAX_AUDIT_MB_PER_DAY/)
})

it('a run the model answered keeps its whole copy, and another person still starts runs', async () => {
  const client = agent.team.admin.client
  agent.fake.reply({ text: 'All figures checked.' })
  const jobId = await longJob(client, 'long-answered')
  const res = await client.post(`/_agent-native/jobs/${jobId}/run`)
  expect(res.status).toBe(202)
  const run = await waitForRun(client, res.body.run.id)
  expect(run.run.status).toBe('success')
  expect(toldText(run)).toBe(INSTRUCTIONS)
})
