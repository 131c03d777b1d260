/**
 * Three scheduler instances, each with its own connection pool, on one Postgres: every slot of a
 * few hundred jobs runs exactly once and none is missed (invariant 2), first racing tick for tick
 * under a shared manual clock, then with real timers, the database clock and LISTEN/NOTIFY.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { DbHandle } from '#server/db/client.ts'
import type { RunExecutor } from '#server/runs/executor.ts'
import { nextRuns } from '#server/cron/cron.ts'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { startScheduler } from '#server/scheduler/scheduler.ts'
import { notifyJobsChanged } from '#server/db/signal.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { ok } from '#tests/support/fake-executor.ts'
import { POLL } from '#tests/support/poll.ts'
import { allRuns, createOwner, insertJob, resetJobs, type Owner } from '#tests/support/scheduler-fixtures.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from '#tests/support/scheduler-db.ts'

let database: SchedulerTestDatabase
let owner: Owner
let handles: DbHandle[]
beforeAll(async () => {
  database = await createSchedulerDatabase()
  owner = await createOwner(database.handle.db)
  handles = [await database.open(4), await database.open(4), await database.open(4)]
})
afterAll(() => database?.drop())
beforeEach(() => resetJobs(database.handle.db))
const db = () => database.handle.db

/** Finishes after a few turns of the event loop, so runs overlap the other instances' ticks. */
const briefly: RunExecutor = async () => {
  for (let turns = Math.floor(Math.random() * 8); turns > 0; turns--) await nextTurn()
  return ok()
}

const SCHEDULES = ['* * * * *', '*/2 * * * *', '*/3 * * * *', '1,4 * * * *', '30 12 * * *', '*/5 9-17 * * *']

it('three instances racing tick for tick: every slot of 300 jobs over 8 minutes exactly once, none missed', async () => {
  const clock = new ManualClock('2026-08-03T11:59:30Z')
  const cores = handles.map((handle, i) =>
    createSchedulerCore({
      db: handle.db,
      instance: `node-${i + 1}`,
      executor: briefly,
      clock,
      concurrency: 8,
      leaseMs: 86_400_000,
      // Small batches so the instances interleave inside each minute's burst.
      claimBatch: 15,
    }),
  )
  const jobs: { id: string; schedule: string; timezone: string }[] = []
  for (let i = 0; i < 300; i++) {
    const schedule = SCHEDULES[i % SCHEDULES.length]!
    const timezone = i % 2 ? 'Europe/Berlin' : 'America/New_York'
    jobs.push({
      id: await insertJob(db(), owner, { schedule, timezone, overlap: 'queue' }, clock.now()),
      schedule,
      timezone,
    })
  }
  const end = new Date('2026-08-03T12:08:00.500Z')
  while (clock.now() < end) {
    await clock.advance(30_000 + Math.floor(Math.random() * 500))
    // Tick all three at once until a round finds nothing to do and nothing runs.
    for (;;) {
      const results = await Promise.all(cores.map((c) => c.tick()))
      const busy =
        results.some((r) => r.claimed + r.started + r.reaped > 0) || cores.some((c) => c.inFlight > 0)
      if (!busy) break
      await Promise.all(cores.map((c) => c.idle()))
    }
  }

  const runs = await allRuns(db())
  const seen = new Set<string>()
  for (const run of runs) {
    const key = `${run.jobId} ${run.scheduledFor.toISOString()} ${run.attempt}`
    expect(seen.has(key), `duplicate run ${key}`).toBe(false)
    seen.add(key)
    expect(run.status).toBe('success')
  }
  const expected = jobs.flatMap(({ id, schedule, timezone }) =>
    nextRuns(schedule, { after: new Date('2026-08-03T11:59:30Z'), timezone, count: 100 })
      .filter((d) => d <= clock.now())
      .map((d) => `${id} ${d.toISOString()} 1`),
  )
  expect(expected.length).toBeGreaterThan(500)
  expect([...seen].sort()).toEqual(expected.sort())
  const byInstance = new Map<string, number>()
  for (const run of runs) byInstance.set(run.instance!, (byInstance.get(run.instance!) ?? 0) + 1)
  expect([...byInstance.keys()].sort()).toEqual(['node-1', 'node-2', 'node-3'])
})

it('three instances on real timers and the database clock: 200 jobs due together each run exactly once', async () => {
  const schedulers = await Promise.all(
    handles.map((handle, i) =>
      startScheduler({
        handle,
        instanceId: `live-${i + 1}`,
        executor: briefly,
        concurrency: 8,
        graceMs: 5_000,
      }),
    ),
  )
  try {
    const ids: string[] = []
    for (let i = 0; i < 200; i++) ids.push(await insertJob(db(), owner, { schedule: '0 0 1 1 *' }))
    // All due in 1.5 s by the database clock. The schedulers sleep up to 30 s; the NOTIFY wakes them.
    await db().execute(
      sql`update jobs set next_run_at = date_trunc('milliseconds', now()) + interval '1.5 seconds'`,
    )
    await notifyJobsChanged()
    await expect
      .poll(async () => (await allRuns(db())).filter((r) => r.status === 'success').length, POLL)
      .toBe(200)
    // Stopped (in-flight work drained), none can start a second run of a job: the count is final.
    await Promise.all(schedulers.map((s) => s.stop()))
    const runs = await allRuns(db())
    expect(runs).toHaveLength(200)
    expect(new Set(runs.map((r) => r.jobId)).size).toBe(200)
    for (const run of runs)
      expect(run.startedAt!.getTime()).toBeGreaterThanOrEqual(run.scheduledFor.getTime())
  } finally {
    await Promise.all(schedulers.map((s) => s.stop()))
    // Safe to call twice.
    await Promise.all(schedulers.map((s) => s.stop()))
  }
})
