/**
 * DST days end to end: the scheduler, Postgres and the cron math together, driven through both
 * of Europe/Berlin's 2026 transitions by a manual clock that jumps to each wake-up the scheduler
 * asks for. Fixed-time jobs run once (first occurrence; first instant after a gap); interval jobs
 * follow real time (docs/architecture.md, "DST policy").
 */
import { expect, it } from 'vitest'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'
import { succeed } from '#tests/support/fake-executor.ts'
import { insertJob, runsOf } from '#tests/support/scheduler-fixtures.ts'

const suite = withSchedulerDatabase()
const db = suite.db
const zone = 'Europe/Berlin'

/** Runs the scheduler from `from` to `to`, sleeping exactly as long as each tick says. */
async function live(from: string, to: string) {
  const clock = new ManualClock(from)
  const core = createSchedulerCore({
    db: db(),
    instance: 'dst',
    executor: succeed,
    clock,
    leaseMs: 86_400_000,
  })
  const end = Date.parse(to)
  for (let ticks = 0; ; ticks++) {
    if (ticks > 1_000) throw new Error('the scheduler never went to sleep')
    const { sleepMs } = await core.tick()
    await core.idle()
    if (clock.now().getTime() + sleepMs > end) return
    await clock.advance(sleepMs)
  }
}

/** A job's run times as `MM-DDTHH:MM` (UTC); every run must have succeeded, exactly on time. */
const fired = async (id: string) => {
  const runs = await runsOf(db(), id)
  for (const run of runs) {
    expect(run.status).toBe('success')
    expect(run.startedAt).toEqual(run.scheduledFor)
  }
  return runs.map((r) => r.scheduledFor.toISOString().slice(5, 16))
}

// `*/30 0-4 * * *` is an interval job (step and range): it follows real time through the change.
const INTERVAL = '*/30 0-4 * * *'

it('spring forward (02:00 → 03:00): 02:30 runs once at 03:00; the interval job skips 02:00 and 02:30', async () => {
  const fixed = await insertJob(
    db(),
    suite.owner,
    { schedule: '30 2 * * *', timezone: zone },
    new Date('2026-03-27T22:30:00Z'),
  )
  const interval = await insertJob(
    db(),
    suite.owner,
    { schedule: INTERVAL, timezone: zone },
    new Date('2026-03-27T22:30:00Z'),
  )
  await live('2026-03-27T22:30:00Z', '2026-03-30T03:00:00Z')
  expect(await fired(fixed)).toEqual([
    '03-28T01:30', // 02:30 CET
    '03-29T01:00', // 02:30 does not exist: 03:00 CEST, the first instant after the gap
    '03-30T00:30', // 02:30 CEST
  ])
  expect(await fired(interval)).toEqual([
    // Saturday, CET (UTC+1): 00:00–04:30 local
    ...['03-27T23:00', '03-27T23:30', '03-28T00:00', '03-28T00:30', '03-28T01:00'],
    ...['03-28T01:30', '03-28T02:00', '03-28T02:30', '03-28T03:00', '03-28T03:30'],
    // Sunday: 00:00–01:30 CET, then 03:00–04:30 CEST; 02:00 and 02:30 never exist
    ...['03-28T23:00', '03-28T23:30', '03-29T00:00', '03-29T00:30'],
    ...['03-29T01:00', '03-29T01:30', '03-29T02:00', '03-29T02:30'],
    // Monday, CEST (UTC+2)
    ...['03-29T22:00', '03-29T22:30', '03-29T23:00', '03-29T23:30', '03-30T00:00'],
    ...['03-30T00:30', '03-30T01:00', '03-30T01:30', '03-30T02:00', '03-30T02:30'],
  ])
})

it('fall back (03:00 → 02:00): 02:30 runs once, at its first occurrence; the interval job runs both passes', async () => {
  const fixed = await insertJob(
    db(),
    suite.owner,
    { schedule: '30 2 * * *', timezone: zone },
    new Date('2026-10-23T21:30:00Z'),
  )
  const interval = await insertJob(
    db(),
    suite.owner,
    { schedule: INTERVAL, timezone: zone },
    new Date('2026-10-23T21:30:00Z'),
  )
  await live('2026-10-23T21:30:00Z', '2026-10-26T04:00:00Z')
  expect(await fired(fixed)).toEqual([
    '10-24T00:30', // 02:30 CEST
    '10-25T00:30', // the first 02:30 (CEST); the repeat at 01:30 UTC does not run
    '10-26T01:30', // 02:30 CET
  ])
  expect(await fired(interval)).toEqual([
    // Saturday, CEST (UTC+2)
    ...['10-23T22:00', '10-23T22:30', '10-23T23:00', '10-23T23:30', '10-24T00:00'],
    ...['10-24T00:30', '10-24T01:00', '10-24T01:30', '10-24T02:00', '10-24T02:30'],
    // Sunday: 00:00–02:30 CEST, then 02:00–04:30 CET: 02:00 and 02:30 run twice
    ...['10-24T22:00', '10-24T22:30', '10-24T23:00', '10-24T23:30', '10-25T00:00', '10-25T00:30'],
    ...['10-25T01:00', '10-25T01:30', '10-25T02:00', '10-25T02:30', '10-25T03:00', '10-25T03:30'],
    // Monday, CET (UTC+1)
    ...['10-25T23:00', '10-25T23:30', '10-26T00:00', '10-26T00:30', '10-26T01:00'],
    ...['10-26T01:30', '10-26T02:00', '10-26T02:30', '10-26T03:00', '10-26T03:30'],
  ])
})
