/**
 * A run settled by the reaper (its instance died, so its lease lapsed) ends like any other: its
 * result goes to the job's notify targets and the failure-alert policy counts it, through the same
 * `afterSettle` hook as a run its own instance settled. A reaped attempt that will be retried is
 * not the run's end: nothing is sent or alerted until the retry's outcome. The dead instance is a
 * `running` row whose lease already lapsed; a real scheduler reaps it, delivery posts to a real
 * local webhook receiver.
 */
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { jobRuns } from '#server/db/schema/index.ts'
import { integrationHooks } from '#server/integrations/run-delivery.ts'
import { newId } from '#server/lib/ids.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startDeliveryApp, type DeliveryApp } from '#tests/support/delivery-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { eventually } from '#tests/support/poll.ts'
import { runsOf } from '#tests/support/scheduler-fixtures.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import type { WebhookReceiver } from '#tests/support/webhook-receiver.ts'

const KEY = 'sk-ant-deployment-reaped-01'

let app: TestApp
let team: Team
let fake: FakeAnthropic
let receiver: WebhookReceiver
let started: DeliveryApp | undefined
let scheduler: RunningScheduler | undefined
let hooks: ReturnType<typeof integrationHooks>
/** Runs the scheduler has handed to `afterSettle`: a row can read final before its hook is called. */
const handedOver = new Set<string>()

beforeAll(async () => {
  started = await startDeliveryApp(KEY, 'Done.')
  ;({ app, team, fake, receiver } = started)
  hooks = integrationHooks({ backoffMs: [20, 20], db: app.server.db.db })
}, 300_000)
afterEach(async () => {
  await scheduler?.stop()
  scheduler = undefined
  await hooks.idle()
})
afterAll(() => started?.close())

const db = () => app.server.db.db

/** A job whose failures go to a webhook at `path`, alerting after its first failed run. */
async function jobPostingFailuresTo(name: string, path: string, retries: number) {
  const hook = await team.admin.client.post('/_agent-native/webhooks', {
    kind: 'webhook',
    name,
    url: `${receiver.origin}${path}`,
  })
  expect(hook.status, JSON.stringify(hook.body)).toBe(201)
  const res = await team.creator.client.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * 1-5',
    instructions: `Instructions for ${name}`,
    retries,
    alertAfterFailures: 1,
    notify: { onFailure: [`webhook:${name}`] },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job.id as string
}

/** What an instance killed mid-run leaves behind: a `running` row whose lease has lapsed. */
async function orphanedRun(jobId: string): Promise<string> {
  const id = newId('run')
  await db()
    .insert(jobRuns)
    .values({
      id,
      jobId,
      orgId: team.orgId,
      trigger: 'schedule',
      scheduledFor: new Date(),
      attempt: 1,
      status: 'running',
      instance: 'killed-instance',
      startedAt: sql`now() - interval '1 minute'` as never,
      leaseExpiresAt: sql`now() - interval '1 second'` as never,
    })
  return id
}

/** An instance that starts, reaps the orphan and runs what is queued, told about settled runs. */
async function startInstance() {
  scheduler = await startScheduler({
    handle: app.server.db,
    executor: createAgentExecutor(),
    graceMs: 1_000,
    backoffMs: [50],
    afterSettle: (run) => {
      handedOver.add(run.id)
      hooks.afterSettle(run)
    },
  })
}

/**
 * Waits until every run of the job is final and handed to the hooks, and its deliveries and alerts
 * are done. The reaper commits a run's end before it calls `afterSettle`, so a poll can read the row
 * final while the hook has not been called yet: `hooks.idle()` alone would find nothing in flight.
 */
async function settled(jobId: string, runs: number) {
  const all = await eventually(`the job's ${runs} runs to end and reach the hooks`, async () => {
    const found = await runsOf(db(), jobId)
    const done = found.every((r) => !['queued', 'running'].includes(r.status) && handedOver.has(r.id))
    return found.length === runs && done ? found : undefined
  })
  await hooks.idle()
  return all
}

const posted = (path: string) =>
  receiver.received
    .filter((r) => r.path === path)
    .map((r) => JSON.parse(r.body) as { type: string; data: { run: { id: string; status: string } } })

const alertsFor = async (jobId: string) =>
  (
    (await team.creator.client.get('/_agent-native/notifications')).body.notifications as {
      jobId: string
      kind: string
    }[]
  ).filter((n) => n.jobId === jobId)

describe('a run the reaper settles', () => {
  it('with no retry left, sends its failure to the notify targets and raises the failure alert', async () => {
    const jobId = await jobPostingFailuresTo('reaped-final', '/reaped-final', 0)
    const runId = await orphanedRun(jobId)
    await startInstance()
    const [run] = await settled(jobId, 1)
    expect(run).toMatchObject({ id: runId, status: 'interrupted' })

    expect(posted('/reaped-final')).toEqual([
      expect.objectContaining({
        type: 'run.failed',
        data: expect.objectContaining({ run: expect.objectContaining({ id: runId, status: 'interrupted' }) }),
      }),
    ])
    const attempts = await team.creator.client.get(`/_agent-native/runs/${runId}/deliveries`)
    expect(attempts.body.deliveries).toEqual([
      expect.objectContaining({ target: 'webhook:reaped-final', attempt: 1, ok: true, statusCode: 200 }),
    ])
    expect(await alertsFor(jobId)).toEqual([expect.objectContaining({ kind: 'failing' })])
  })

  it('with a retry left, sends and alerts nothing until the retry fails, then once for the retry', async () => {
    const jobId = await jobPostingFailuresTo('reaped-retried', '/reaped-retried', 1)
    fake.replyWhen('Instructions for reaped-retried', {
      status: 400,
      errorType: 'invalid_request_error',
      message: 'the model refused',
    })
    const reapedId = await orphanedRun(jobId)
    await startInstance()
    const [reaped, retry] = await settled(jobId, 2)
    expect(reaped).toMatchObject({ id: reapedId, status: 'interrupted' })
    expect(retry).toMatchObject({ attempt: 2, trigger: 'retry', status: 'error' })

    expect(posted('/reaped-retried').map((e) => [e.type, e.data.run.id])).toEqual([['run.failed', retry!.id]])
    const reapedAttempts = await team.creator.client.get(`/_agent-native/runs/${reapedId}/deliveries`)
    expect(reapedAttempts.body.deliveries).toEqual([])
    expect(await alertsFor(jobId)).toEqual([expect.objectContaining({ kind: 'failing' })])
  })
})
