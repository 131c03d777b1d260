/**
 * Cancel and retry over real HTTP: the truth table's run-now right (403/404), 409 when the run is
 * in the wrong state, and a cancel that reaches the instance executing the run (the fake model's
 * request is aborted) while a scheduler runs in-process against a fake Anthropic server.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRUTH_TABLE, expectedStatus } from '#server/access/truth-table.ts'
import { queryRows } from '#server/db/sql.ts'
import type { RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { eventually } from '#tests/support/poll.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
let scheduler: RunningScheduler
beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-test',
    anyKey: true,
    fallback: { text: 'All done.' },
    // Heartbeat far away: a cancel must reach the run through the jobs-changed notification.
    scheduler: { leaseMs: 600_000 },
  })
  ;({ app, team, fake } = agent)
  scheduler = agent.scheduler!
})
afterAll(() => agent?.close())

const J = '/_agent-native/jobs'
let counter = 0

async function makeJob(client: ApiClient, scope: 'personal' | 'shared', instructions = 'Post it.') {
  const name = `ctl-${scope}-${++counter}`
  const res = await client.post(J, { name, scope, schedule: '0 7 1 1 *', instructions })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job.id as string
}

/** A finished run of the job in the given status, written as the scheduler would. */
async function finishedRun(jobId: string, status: 'error' | 'success'): Promise<string> {
  const id = `run_${status}${++counter}x`
  await queryRows(
    app.server.db.db,
    sql`insert into job_runs (id, job_id, org_id, trigger, scheduled_for, status, started_at, finished_at, error)
        select ${id}, id, org_id, 'schedule', now() - interval '1 hour', ${status}, now() - interval '1 hour',
          now() - interval '59 minutes', ${status === 'error' ? 'boom' : null}
        from jobs where id = ${jobId}`,
  )
  return id
}

describe('POST /runs/:id/cancel and /runs/:id/retry per the truth table', () => {
  it.each(TRUTH_TABLE.map((row) => [`${row.caller} on a ${row.job} job`, row] as const))(
    '%s',
    async (_, row) => {
      const creator = team.creator.client
      const jobId = await makeJob(creator, row.job)
      const failed = await finishedRun(jobId, 'error')
      const retry = await team[row.caller].client.post(`/_agent-native/runs/${failed}/retry`)
      expect(retry.status, JSON.stringify(retry.body)).toBe(expectedStatus(row, 'edit', 202))
      // A queued run held back an hour, so the in-process scheduler cannot start it first.
      const queued = await finishedRun(jobId, 'success')
      await queryRows(
        app.server.db.db,
        sql`update job_runs set status = 'queued', started_at = null, finished_at = null,
              not_before = now() + interval '1 hour' where id = ${queued}`,
      )
      const cancel = await team[row.caller].client.post(`/_agent-native/runs/${queued}/cancel`)
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(expectedStatus(row, 'edit', 200))
      const after = await creator.get(`/_agent-native/runs/${queued}`)
      expect(after.body.run.status).toBe(cancel.status === 200 ? 'cancelled' : 'queued')
      if (cancel.status !== 200) expect(cancel.body.error.code).toMatch(/forbidden|not_found/)
    },
  )

  it('answers 404 for a run that does not exist and 405 for GET', async () => {
    const c = team.creator.client
    expect((await c.post('/_agent-native/runs/run_nosuch/cancel')).status).toBe(404)
    expect((await c.post('/_agent-native/runs/run_nosuch/retry')).status).toBe(404)
    expect((await c.get('/_agent-native/runs/run_nosuch/cancel')).status).toBe(405)
  })

  it('answers 409 when the run is not queued/running (cancel) or not failed (retry)', async () => {
    const c = team.creator.client
    const jobId = await makeJob(c, 'personal')
    const ok = await finishedRun(jobId, 'success')
    const cancel = await c.post(`/_agent-native/runs/${ok}/cancel`)
    expect(cancel.status).toBe(409)
    expect(cancel.body.error).toMatchObject({ code: 'conflict' })
    expect(cancel.body.error.message).toContain('success')
    const retry = await c.post(`/_agent-native/runs/${ok}/retry`)
    expect(retry.status).toBe(409)
    expect(retry.body.error.message).toContain('only failed or cancelled runs')
  })
})

describe('cancelling a running run', () => {
  it('marks it cancelled, aborts the model call on the instance running it, and retry runs it again', async () => {
    const c = team.creator.client
    const token = `HOLD-${Date.now()}`
    fake.replyWhen(token, { hang: true })
    const jobId = await makeJob(c, 'personal', `Wait for ${token}.`)
    const queued = await c.post(`${J}/${jobId}/run`)
    expect(queued.status).toBe(202)
    const runId: string = queued.body.run.id
    const isOurs = (r: { body: Record<string, any> }) => JSON.stringify(r.body).includes(token)
    await eventually('the model request', () => fake.requests.find(isOurs))
    expect((await c.get(`/_agent-native/runs/${runId}`)).body.run.status).toBe('running')

    const cancel = await c.post(`/_agent-native/runs/${runId}/cancel`)
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
    expect(cancel.body.run).toMatchObject({
      id: runId,
      status: 'cancelled',
      error: `Cancelled by ${team.creator.name}`,
    })
    await eventually('the model request to be aborted', () =>
      fake.requests.find((r) => isOurs(r) && r.aborted),
    )
    await eventually('the run to leave the instance', () => !scheduler.core.runningIds().includes(runId))
    const after = await c.get(`/_agent-native/runs/${runId}`)
    expect(after.body.run.status).toBe('cancelled')
    expect((await c.get(`${J}/${jobId}`)).body.job.lastStatus).toBe('cancelled')
    expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(409)

    const retry = await c.post(`/_agent-native/runs/${runId}/retry`)
    expect(retry.status, JSON.stringify(retry.body)).toBe(202)
    expect(retry.body.run).toMatchObject({ jobId, trigger: 'retry', status: 'queued' })
    expect(retry.body.run.reason).toContain(`retry of ${runId}`)
    const done = await waitForRun(c, retry.body.run.id)
    expect(done.run.status).toBe('success')
  })
})

describe('retrying a run of a paused job', () => {
  it('starts it, as Run now does: Retry is a person asking for a run now', async () => {
    const c = team.creator.client
    const jobId = await makeJob(c, 'personal', 'Post the paused report.')
    expect((await c.patch(`${J}/${jobId}`, { enabled: false })).status).toBe(200)
    const failed = await finishedRun(jobId, 'error')
    fake.replyWhen('Post the paused report.', { text: 'Posted.' })
    const retry = await c.post(`/_agent-native/runs/${failed}/retry`)
    expect(retry.status, JSON.stringify(retry.body)).toBe(202)
    const done = await waitForRun(c, retry.body.run.id)
    // Unfixed, the scheduler took it for one of its own retries: skipped, "the job was paused".
    expect(done.run.status, done.run.reason).toBe('success')
  })
})

describe('a running run', () => {
  it('shows its steps while it runs, and keeps them when it is cancelled before it ends', async () => {
    const c = team.creator.client
    const token = `LIVE-${Date.now()}`
    // Step one checks the clock; step two never answers, so the run is still going.
    fake.replyWhen(token, { content: [{ type: 'tool_use', name: 'clock', input: {} }] }, { hang: true })
    const jobId = await makeJob(c, 'personal', `Check the time for ${token}.`)
    const runId: string = (await c.post(`${J}/${jobId}/run`)).body.run.id
    const live = await eventually('the first step in the transcript while the run runs', async () => {
      const seen = (await c.get(`/_agent-native/runs/${runId}`)).body
      return seen.run.status === 'running' && JSON.stringify(seen.transcript).includes('tool-clock')
    })
    expect(live).toBe(true)

    expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await eventually('the run to leave the instance', () => !scheduler.core.runningIds().includes(runId))
    const after = (await c.get(`/_agent-native/runs/${runId}`)).body
    expect(after.run.status).toBe('cancelled')
    // Before, a run that ended without its executor's answer kept only its instructions.
    expect(JSON.stringify(after.transcript)).toContain('tool-clock')
    expect(after.transcript.filter((m: { role: string }) => m.role === 'assistant')).toHaveLength(1)
  })

  it('shows its tokens and model after each step while it runs, and keeps them when it is cancelled', async () => {
    const c = team.creator.client
    const token = `TOKENS-${Date.now()}`
    // Step one (12 tokens in, 7 out, as the fake reports) checks the clock; step two never answers.
    fake.replyWhen(token, { content: [{ type: 'tool_use', name: 'clock', input: {} }] }, { hang: true })
    const jobId = await makeJob(c, 'personal', `Check the time for ${token}.`)
    const runId: string = (await c.post(`${J}/${jobId}/run`)).body.run.id
    // Before, a run's tokens and model were written only when it ended: "—" on its page throughout.
    const live = await eventually('the first step’s tokens while the run runs', async () => {
      const { run } = (await c.get(`/_agent-native/runs/${runId}`)).body
      return run.status === 'running' && run.usage.inputTokens > 0 ? run.usage : undefined
    })
    expect(live).toMatchObject({
      inputTokens: 12,
      outputTokens: 7,
      model: expect.stringMatching(/^anthropic:/),
    })

    expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await eventually('the run to leave the instance', () => !scheduler.core.runningIds().includes(runId))
    // With the call it was making, its request's size at four characters a token (decision 0533).
    const held = fake.requests.filter((r) => JSON.stringify(r.body.messages).includes(token))[1]!
    await expect
      .poll(async () => (await c.get(`/_agent-native/runs/${runId}`)).body.run)
      .toMatchObject({
        status: 'cancelled',
        usage: { inputTokens: 12 + Math.ceil(held.bodyChars / 4), outputTokens: 7 },
      })
  })
})
