/**
 * Security review, finding 7: anyone could spend the operator's model budget (a stranger made 500
 * every-minute jobs in 6 s). Now each organisation has a limit on enabled jobs and on runs per
 * rolling 24 h that use the deployment's key, answered with clear JSON, and admins see the usage.
 * Unattended runs may read jobs but change them only when the job opts in (`agentMayEditJobs`).
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { runNow } from '#tests/support/runs.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const USAGE = '/_agent-native/usage'
const KEY = 'sk-ant-deployment-quota-01'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    env: { ORG_MAX_ENABLED_JOBS: '3', ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY: '2' },
    scheduler: true,
  })
  ;({ app, team, fake } = agent)
})
afterAll(() => agent?.close())

// Enabled, yet never due while the file runs: an every-minute job would be run by the scheduler at
// a minute boundary and spend the deployment-key runs the quota cases count.
const job = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  schedule: '0 0 1 1 *',
  instructions: `Do ${name}.`,
  scope: 'shared',
  ...extra,
})

describe('enabled jobs per organisation', () => {
  const ids: string[] = []

  it('takes jobs up to the limit, then answers 403 quota_exceeded and writes nothing', async () => {
    for (const name of ['q1', 'q2', 'q3']) {
      const res = await team.admin.client.post(J, job(name))
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      ids.push(res.body.job.id)
    }
    const before = await snapshotTables(app.server.db)
    const over = await team.member.client.post(J, job('q4'))
    expect(over.status).toBe(403)
    expect(over.body).toMatchObject({
      error: { code: 'quota_exceeded', message: expect.stringMatching(/3 enabled jobs/) },
    })
    expect(await snapshotTables(app.server.db)).toEqual(before)
  })

  it('still takes a paused job, but not enabling it; pausing another makes room', async () => {
    const paused = await team.member.client.post(J, job('q5', { enabled: false }))
    expect(paused.status).toBe(201)
    const enable = await team.member.client.patch(`${J}/${paused.body.job.id}`, { enabled: true })
    expect(enable.status).toBe(403)
    expect(enable.body.error.code).toBe('quota_exceeded')
    expect((await team.admin.client.patch(`${J}/${ids[2]}`, { enabled: false })).status).toBe(200)
    expect((await team.member.client.patch(`${J}/${paused.body.job.id}`, { enabled: true })).status).toBe(200)
  })

  it('does not count other organisations', async () => {
    expect((await team.outsider.client.post(J, job('elsewhere'))).status).toBe(201)
  })
})

describe('runs on the deployment key per organisation', () => {
  it('runs up to the limit, then refuses Run now with 429', async () => {
    const made = await team.admin.client.post(J, job('spender', { enabled: false }))
    const id = made.body.job.id
    expect((await runNow(team.admin.client, id)).run.status).toBe('success')
    expect((await runNow(team.admin.client, id)).run.status).toBe('success')
    const third = await team.admin.client.post(`${J}/${id}/run`)
    expect(third.status).toBe(429)
    expect(third.body).toMatchObject({
      error: { code: 'quota_exceeded', message: expect.stringMatching(/deployment/) },
    })
    // Retrying a failed run of it is refused the same way, before anything is queued (it was
    // queued, and failed at once with the same reason).
    await queryRows(
      app.server.db.db,
      sql`insert into job_runs (id, job_id, org_id, trigger, scheduled_for, status, started_at, finished_at, error)
          select 'run_quota_failed', id, org_id, 'schedule', now() - interval '1 hour', 'error',
            now() - interval '1 hour', now() - interval '59 minutes', 'boom'
          from jobs where id = ${id}`,
    )
    const before = await snapshotTables(app.server.db)
    const retry = await team.admin.client.post('/_agent-native/runs/run_quota_failed/retry')
    expect(retry.status).toBe(429)
    expect(retry.body.error).toMatchObject({ code: 'quota_exceeded' })
    expect(await snapshotTables(app.server.db)).toEqual(before)
  })

  it('shows admins the usage, and members nothing', async () => {
    const usage = await team.admin.client.get(USAGE)
    expect(usage.status).toBe(200)
    expect(usage.body.usage).toMatchObject({
      enabledJobs: { used: 3, limit: 3 },
      jobs: { used: 5, limit: 1000 },
      deploymentKeyRuns: { used: 2, limit: 2 },
      deploymentKeyChatTurns: { used: 0, limit: 500 },
    })
    expect((await team.member.client.get(USAGE)).status).toBe(403)
    const other = await team.outsider.client.get(USAGE)
    expect(other.body.usage.deploymentKeyRuns.used).toBe(0)
  })
})

describe('unattended runs and job changes', () => {
  const toolUse = (input: Record<string, unknown>) => ({
    content: [{ type: 'tool_use' as const, name: 'manage-jobs', input }],
    usage: { input_tokens: 10, output_tokens: 5 },
  })

  it('may read jobs but not create or change them unless the job opts in', async () => {
    const made = await team.outsider.client.post(J, job('reader', { enabled: false }))
    expect(made.status).toBe(201)
    const id = made.body.job.id
    const count = async () =>
      Number(
        (await queryRows<{ n: number }>(app.server.db.db, sql`select count(*)::int as n from jobs`))[0]!.n,
      )
    const runOnce = async () => {
      fake.replyWhen(
        'Do reader.',
        toolUse({ action: 'create', name: 'spawned', schedule: '0 7 * * *', instructions: 'x' }),
        { text: 'Done.' },
      )
      const { transcript } = await runNow(team.outsider.client, id)
      return transcript[1].parts.find((p: { type: string }) => p.type === 'tool-manage-jobs')
    }
    const before = await count()
    const refused = await runOnce()
    expect(refused.output).toMatchObject({ ok: false, error: { status: 403 } })
    expect(refused.output.error.message).toMatch(/agentMayEditJobs/)
    expect(await count()).toBe(before)

    expect((await team.outsider.client.patch(`${J}/${id}`, { agentMayEditJobs: true })).status).toBe(200)
    const allowed = await runOnce()
    expect(allowed.output).toMatchObject({ ok: true, action: 'create' })
    expect(await count()).toBe(before + 1)
  })

  it('only admins and the creator may set agentMayEditJobs', async () => {
    const made = await team.creator.client.post(J, job('opt-in', { enabled: false }))
    const id = made.body.job.id
    expect((await team.member.client.patch(`${J}/${id}`, { agentMayEditJobs: true })).status).toBe(403)
    const byCreator = await team.creator.client.patch(`${J}/${id}`, { agentMayEditJobs: true })
    expect(byCreator.status, JSON.stringify(byCreator.body)).toBe(200)
    expect(byCreator.body.job.agentMayEditJobs).toBe(true)
  })
})
