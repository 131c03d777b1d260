/**
 * The dead-man's switch (`expectSuccessWithin`) on a manual clock standing in for the database
 * clock: after a simulated scheduler outage the check (the same watcher main.ts hands the
 * scheduler) raises one alert per breach, and a new success re-arms it.
 */
import { eq } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { notifications } from '#server/db/schema/integrations.ts'
import { integrationHooks } from '#server/integrations/run-delivery.ts'
import { succeed } from '#tests/support/fake-executor.ts'
import { insertJob, runsOf, setJob } from '#tests/support/scheduler-fixtures.ts'
import { manualCore, withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'

const suite = withSchedulerDatabase()
const db = suite.db

const alertsOf = (jobId: string) =>
  db().select().from(notifications).where(eq(notifications.jobId, jobId)).orderBy(notifications.createdAt)

it('alerts once per breach after a scheduler outage, and again only after a new success', async () => {
  const { clock, tick } = manualCore(db(), '2026-07-01T06:59:00Z', succeed)
  const [deadman] = integrationHooks({ db: db() }).watchers
  const check = () => deadman!.run(clock.sqlNow())
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '0 7 * * *', expectSuccessWithin: '26h', createdAt: new Date('2026-06-30T06:00:00Z') },
    new Date('2026-07-01T06:00:00Z'),
  )
  // Created 06-30 06:00 with a 26 h window: due by 07-01 08:00; the 07:00 run succeeds (deadline 07-02 09:00).
  await clock.set('2026-07-01T07:00:00.005Z')
  await tick()
  expect((await runsOf(db(), id)).map((r) => r.status)).toEqual(['success'])
  expect(await check()).toEqual([])

  // The scheduler is down from here: no ticks, no runs, for two days.
  await clock.set('2026-07-02T08:59:00Z')
  expect(await check()).toEqual([])
  await clock.set('2026-07-03T10:00:00Z')
  expect(await check()).toEqual([id])
  expect(await check()).toEqual([])
  const alerts = await alertsOf(id)
  expect(alerts).toHaveLength(1)
  expect(alerts[0]).toMatchObject({ userId: suite.owner.userId, kind: 'deadman', readAt: null })
  expect(alerts[0]!.title).toBe(`${id.replace(/_/g, '-')} has not succeeded within 26h`)
  expect(alerts[0]!.body).toContain('2026-07-02T09:00:00.005Z')

  // Back up: the scheduler catches up with the latest missed slot, which succeeds.
  await tick()
  expect((await runsOf(db(), id)).filter((r) => r.status === 'success')).toHaveLength(2)
  expect(await check()).toEqual([])
  // 26 h after that success, a new breach: one more alert.
  await clock.advance(26 * 3_600_000 + 1_000)
  expect(await check()).toEqual([id])
  expect(await check()).toEqual([])
  expect(await alertsOf(id)).toHaveLength(2)
})

it('ignores disabled jobs and jobs without a window', async () => {
  const { clock } = manualCore(db(), '2026-07-10T00:00:00Z', succeed)
  const [deadman] = integrationHooks({ db: db() }).watchers
  const created = new Date('2026-07-01T00:00:00Z')
  const disabled = await insertJob(db(), suite.owner, {
    schedule: '0 7 * * *',
    expectSuccessWithin: '1h',
    createdAt: created,
  })
  await setJob(db(), disabled, { enabled: false })
  await insertJob(db(), suite.owner, { schedule: '0 7 * * *', createdAt: created })
  expect(await deadman!.run(clock.sqlNow())).toEqual([])
})
