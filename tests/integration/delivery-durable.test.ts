/**
 * Delivery retries survive a restart: the instance that settled a run makes the first attempt and
 * stops during the backoff; two instances started afterwards on the same database (each its own
 * connection pool, scheduler and delivery hooks, as main.ts wires them) find the due retry when
 * they start sweeping, and exactly one of them sends it. A real local webhook receiver fails the
 * first attempt and counts what arrives.
 */
import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { openDatabase, type DbHandle } from '#server/db/client.ts'
import { deliveryAttempts, pendingDeliveries } from '#server/db/schema/index.ts'
import { integrationHooks } from '#server/integrations/run-delivery.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startDeliveryApp, type DeliveryApp } from '#tests/support/delivery-app.ts'
import { eventually } from '#tests/support/poll.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import type { WebhookReceiver } from '#tests/support/webhook-receiver.ts'

const KEY = 'sk-ant-deployment-durable-01'
/** Long enough that the first instance is surely stopped before its retry is due. */
const BACKOFF_MS = 5_000

let app: TestApp
let team: Team
let receiver: WebhookReceiver
let started: DeliveryApp | undefined
const instances: {
  scheduler: RunningScheduler
  hooks: ReturnType<typeof integrationHooks>
  handle: DbHandle
}[] = []

beforeAll(async () => {
  started = await startDeliveryApp(KEY, 'Numbers are up.')
  ;({ app, team, receiver } = started)
}, 300_000)
afterAll(async () => {
  for (const i of instances) {
    await i.scheduler.stop()
    await i.hooks.stop()
    await i.handle.close()
  }
  await started?.close()
})

const db = () => app.server.db.db

/** An instance as main.ts starts one: its own pool, a scheduler, delivery hooks and their watchers. */
async function startInstance(name: string, sweepMs: number) {
  const handle = await openDatabase({ url: app.server.db.url!, poolSize: 3 })
  const hooks = integrationHooks({ backoffMs: [BACKOFF_MS], db: handle.db, sweepMs })
  const scheduler = await startScheduler({
    handle,
    instanceId: name,
    executor: createAgentExecutor(),
    graceMs: 1_000,
    afterSettle: hooks.afterSettle,
    watchers: hooks.watchers,
  })
  const instance = { scheduler, hooks, handle }
  instances.push(instance)
  return instance
}

const until = (check: () => Promise<boolean>, what: string) => eventually(what, check)

const attemptsOf = async (runId: string) =>
  (
    await db()
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.runId, runId))
      .orderBy(asc(deliveryAttempts.id))
  ).map((a) => [a.attempt, a.ok, a.statusCode])

it('a retry pending when its instance stops is sent once, by one of the instances started next', async () => {
  const endpoint = await team.admin.client.post('/_agent-native/webhooks', {
    kind: 'webhook',
    name: 'durable-feed',
    url: `${receiver.origin}/durable`,
  })
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201)
  receiver.answer('/durable', 500)
  const created = await team.creator.client.post('/_agent-native/jobs', {
    name: 'durable-numbers',
    schedule: '0 7 * * 1-5',
    instructions: 'Report the numbers.',
    notify: { onSuccess: ['webhook:durable-feed'] },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)

  const first = await startInstance('first', 60_000)
  const started = await team.creator.client.post(`/_agent-native/jobs/${created.body.job.id}/run`)
  expect(started.status).toBe(202)
  const runId = started.body.run.id as string
  await until(async () => (await attemptsOf(runId)).length === 1, 'the first attempt')

  // The first attempt failed and its retry waits in the database, not in this instance's memory.
  await first.scheduler.stop()
  await first.hooks.stop()
  expect(await attemptsOf(runId)).toEqual([[1, false, 500]])
  const [pending] = await db().select().from(pendingDeliveries).where(eq(pendingDeliveries.runId, runId))
  expect(pending).toMatchObject({ target: 'webhook:durable-feed', attempt: 2 })
  expect(receiver.received.filter((r) => r.path === '/durable')).toHaveLength(1)

  // Two instances sweeping often: the retry is due while both look for it.
  const next = [await startInstance('second', 50), await startInstance('third', 50)]
  await until(async () => (await attemptsOf(runId)).length === 2, 'the retry')
  await until(
    async () =>
      (await db().select().from(pendingDeliveries).where(eq(pendingDeliveries.runId, runId))).length === 0,
    'the pending row to go',
  )
  await Promise.all(next.map((i) => i.hooks.idle()))

  expect(await attemptsOf(runId)).toEqual([
    [1, false, 500],
    [2, true, 200],
  ])
  const arrived = receiver.received.filter((r) => r.path === '/durable')
  expect(arrived).toHaveLength(2)
  // The same message: a receiver could deduplicate on its webhook-id.
  expect(new Set(arrived.map((r) => r.headers['webhook-id'])).size).toBe(1)
  expect(JSON.parse(arrived[1]!.body)).toMatchObject({ type: 'run.succeeded', data: { run: { id: runId } } })
})
