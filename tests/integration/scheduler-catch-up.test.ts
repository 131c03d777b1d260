/**
 * Firing and catch-up with a manual clock on real Postgres: a slot fires once at its time; after
 * downtime `catchUp: latest` runs only the latest slot and records the rest as missed,
 * `catchUp: skip` runs none; disabled jobs produce nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { LATE_GRACE_MS, MAX_MISSED_ROWS } from '#server/runs/policy.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'
import { succeed } from '#tests/support/fake-executor.ts'
import { insertJob, jobState, runsOf } from '#tests/support/scheduler-fixtures.ts'

const suite = withSchedulerDatabase()
let clock: ManualClock
beforeEach(() => {
  clock = new ManualClock('2026-05-04T06:59:59.500Z')
})

const db = suite.db
const core = () => createSchedulerCore({ db: db(), instance: 'test-a', executor: succeed, clock })

async function tickAndFinish(c = core()) {
  const result = await c.tick()
  await c.idle()
  return result
}

describe('on time', () => {
  it('fires a slot once at its time, records it, and moves next_run_at to the following slot', async () => {
    const id = await insertJob(db(), suite.owner, { schedule: '0 7 * * *' }, clock.now())
    const c = core()
    expect((await tickAndFinish(c)).claimed).toBe(0)
    await clock.set('2026-05-04T07:00:00.020Z')
    const result = await tickAndFinish(c)
    expect(result.claimed).toBe(1)
    expect((await tickAndFinish(c)).claimed).toBe(0)

    const runs = await runsOf(db(), id)
    expect(runs).toHaveLength(1)
    const [run] = runs
    expect(run).toMatchObject({
      status: 'success',
      trigger: 'schedule',
      attempt: 1,
      instance: 'test-a',
      reason: null,
    })
    expect(run!.scheduledFor.toISOString()).toBe('2026-05-04T07:00:00.000Z')
    expect(run!.startedAt!.toISOString()).toBe('2026-05-04T07:00:00.020Z')
    const job = await jobState(db(), id)
    expect(job.nextRunAt?.toISOString()).toBe('2026-05-05T07:00:00.000Z')
    expect(job).toMatchObject({ lastStatus: 'success', lastError: null, consecutiveFailures: 0 })
    expect(job.lastRunAt?.toISOString()).toBe(run!.startedAt!.toISOString())
  })

  it('says how long to sleep: until the next due time', async () => {
    await insertJob(db(), suite.owner, { schedule: '0 7 * * *' }, clock.now())
    const result = await core().tick()
    expect(result.sleepMs).toBeLessThanOrEqual(500)
    expect(result.sleepMs).toBeGreaterThan(0)
  })
})

describe('catchUp: latest', () => {
  it('runs only the latest missed slot, as a catch-up, and records the others as missed with a reason', async () => {
    const id = await insertJob(
      db(),
      suite.owner,
      { schedule: '0 * * * *', catchUp: 'latest' },
      new Date('2026-05-04T01:30:00Z'),
    )
    clock = new ManualClock('2026-05-04T06:10:00Z')
    await tickAndFinish()
    const runs = await runsOf(db(), id)
    expect(runs.map((r) => [r.scheduledFor.toISOString().slice(11, 16), r.status, r.trigger])).toEqual([
      ['02:00', 'missed', 'schedule'],
      ['03:00', 'missed', 'schedule'],
      ['04:00', 'missed', 'schedule'],
      ['05:00', 'missed', 'schedule'],
      ['06:00', 'success', 'catch-up'],
    ])
    for (const run of runs.slice(0, 4)) expect(run.reason).toMatch(/catchUp: latest/)
    expect(runs[4]!.reason).toMatch(/ran 10 min late/)
    expect((await jobState(db(), id)).nextRunAt?.toISOString()).toBe('2026-05-04T07:00:00.000Z')
  })

  it('after a very long outage writes at most the last 100 missed slots and says older ones are not listed', async () => {
    const id = await insertJob(db(), suite.owner, { schedule: '* * * * *' }, new Date('2026-04-01T00:00:00Z'))
    clock = new ManualClock('2026-05-04T06:10:30Z')
    await tickAndFinish()
    const runs = await runsOf(db(), id)
    const missed = runs.filter((r) => r.status === 'missed')
    expect(missed).toHaveLength(MAX_MISSED_ROWS)
    expect(missed[0]!.reason).toMatch(/earlier missed times since 2026-04-01T00:01:00.000Z are not listed/)
    expect(missed.at(-1)!.scheduledFor.toISOString()).toBe('2026-05-04T06:09:00.000Z')
    expect(runs.at(-1)).toMatchObject({ status: 'success', trigger: 'schedule' })
    expect(runs.at(-1)!.scheduledFor.toISOString()).toBe('2026-05-04T06:10:00.000Z')
  })
})

describe('catchUp: skip', () => {
  it('runs none of the slots missed during downtime, records them all, and resumes at the next slot', async () => {
    const id = await insertJob(
      db(),
      suite.owner,
      { schedule: '0 * * * *', catchUp: 'skip' },
      new Date('2026-05-04T03:30:00Z'),
    )
    clock = new ManualClock('2026-05-04T06:10:00Z')
    await tickAndFinish()
    const runs = await runsOf(db(), id)
    expect(runs.map((r) => [r.scheduledFor.toISOString().slice(11, 16), r.status])).toEqual([
      ['04:00', 'missed'],
      ['05:00', 'missed'],
      ['06:00', 'missed'],
    ])
    for (const run of runs) expect(run.reason).toMatch(/catchUp: skip/)
    expect((await jobState(db(), id)).nextRunAt?.toISOString()).toBe('2026-05-04T07:00:00.000Z')
  })

  it('still runs a slot that is only a little late (within the grace period)', async () => {
    const id = await insertJob(db(), suite.owner, { schedule: '0 7 * * *', catchUp: 'skip' }, clock.now())
    await clock.set(new Date(Date.parse('2026-05-04T07:00:00Z') + LATE_GRACE_MS - 1_000))
    await tickAndFinish()
    expect((await runsOf(db(), id)).map((r) => r.status)).toEqual(['success'])
  })
})

describe('disabled and suspended jobs', () => {
  it('produce no runs, however overdue', async () => {
    const off = await insertJob(
      db(),
      suite.owner,
      { schedule: '* * * * *', enabled: false },
      new Date('2026-05-04T05:00:00Z'),
    )
    const suspended = await insertJob(
      db(),
      suite.owner,
      { schedule: '* * * * *', suspendedReason: 'creator left' },
      new Date('2026-05-04T05:00:00Z'),
    )
    clock = new ManualClock('2026-05-04T06:30:00Z')
    await tickAndFinish()
    expect(await runsOf(db(), off)).toEqual([])
    expect(await runsOf(db(), suspended)).toEqual([])
  })
})
