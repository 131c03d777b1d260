/**
 * The schedule kinds beside cron, through the real claim path on Postgres: a one-shot `at` job
 * fires exactly once across three racing instances and pauses itself with the reason, and an
 * `every 7m` job keeps its phase (every slot exactly 7 minutes after the last) through an hour of
 * uneven manual-clock steps, including a stretch with no scheduler.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { DbHandle } from '#server/db/client.ts'
import { createSchedulerCore, type SchedulerCore } from '#server/scheduler/core.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { ok } from '#tests/support/fake-executor.ts'
import {
  createOwner,
  insertJob,
  jobState,
  resetJobs,
  runsOf,
  type Owner,
} from '#tests/support/scheduler-fixtures.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from '#tests/support/scheduler-db.ts'

let database: SchedulerTestDatabase
let owner: Owner
let handles: DbHandle[]
beforeAll(async () => {
  database = await createSchedulerDatabase()
  owner = await createOwner(database.handle.db)
  handles = [await database.open(3), await database.open(3), await database.open(3)]
})
afterAll(() => database?.drop())
beforeEach(() => resetJobs(database.handle.db))
const db = () => database.handle.db

function cores(clock: ManualClock, count = 3): SchedulerCore[] {
  return handles
    .slice(0, count)
    .map((handle, i) =>
      createSchedulerCore({ db: handle.db, instance: `node-${i + 1}`, executor: async () => ok(), clock }),
    )
}

/** Ticks every core together until a round finds nothing to do and nothing runs. */
async function settle(all: SchedulerCore[]) {
  for (;;) {
    const results = await Promise.all(all.map((c) => c.tick()))
    const busy = results.some((r) => r.claimed + r.started + r.reaped > 0) || all.some((c) => c.inFlight > 0)
    if (!busy) return
    await Promise.all(all.map((c) => c.idle()))
  }
}

it('a one-shot job fires exactly once across three instances, then pauses itself with the reason', async () => {
  const clock = new ManualClock('2026-12-24T07:58:00Z')
  const all = cores(clock)
  // 09:00 in Berlin is 08:00Z; ten one-shots so the instances really race for them.
  const ids = await Promise.all(
    Array.from({ length: 10 }, () =>
      insertJob(db(), owner, { schedule: 'at 2026-12-24T09:00', timezone: 'Europe/Berlin' }, clock.now()),
    ),
  )
  expect((await jobState(db(), ids[0]!)).nextRunAt?.toISOString()).toBe('2026-12-24T08:00:00.000Z')
  for (let step = 0; step < 12; step++) {
    await clock.advance(30_000)
    await settle(all)
  }
  for (const id of ids) {
    const runs = await runsOf(db(), id)
    expect(runs.map((r) => [r.scheduledFor.toISOString(), r.status])).toEqual([
      ['2026-12-24T08:00:00.000Z', 'success'],
    ])
    const job = await jobState(db(), id)
    expect(job.nextRunAt).toBeNull()
    expect(job.enabled).toBe(true) // what the person wrote stays; the pause is run state
    expect(job.suspendedReason).toBe(
      'One-shot schedule done (Once on 24 Dec 2026 at 09:00 (Europe/Berlin)). It ran; set a new time to run it again.',
    )
  }
})

it('an every-7m job keeps its phase through an hour of uneven clock steps and a scheduler gap', async () => {
  const clock = new ManualClock('2026-06-01T10:00:13Z')
  const all = cores(clock, 2)
  const id = await insertJob(db(), owner, { schedule: 'every 7m', timezone: 'Europe/Berlin' }, clock.now())
  const end = clock.now().getTime() + 3_600_000
  let step = 0
  while (clock.now().getTime() < end) {
    // Uneven steps (5 s … 95 s); minutes 30–33 pass with no tick at all (the scheduler was away).
    await clock.advance(5_000 + ((step++ * 37_000) % 90_000))
    const minute = (clock.now().getTime() - new Date('2026-06-01T10:00:00Z').getTime()) / 60_000
    if (minute >= 30 && minute < 33) continue
    await settle(all)
  }
  const runs = await runsOf(db(), id)
  const slots = runs.map((r) => r.scheduledFor.getTime())
  expect(runs.length).toBeGreaterThanOrEqual(8)
  expect(runs.every((r) => r.status === 'success')).toBe(true)
  // The phase: every slot sits on the 7-minute grid, and each is exactly 7 minutes after the last.
  for (const slot of slots) expect(slot % 420_000).toBe(0)
  for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(420_000)
  expect(new Date(slots[0]!).toISOString()).toBe('2026-06-01T10:03:00.000Z')
  expect((await jobState(db(), id)).nextRunAt?.getTime()).toBe(slots.at(-1)! + 420_000)
})
