/**
 * Failure policies with a manual clock: retries with backoff (30 s, 1 min, …), timeouts, lapsed
 * leases, the auto-pause after 10 failed runs in a row, and re-enabling without a burst.
 */
import { expect, it } from 'vitest'
import { setJobEnabled } from '#server/jobs/service.ts'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { AUTO_PAUSE_AFTER } from '#server/runs/policy.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { manualCore, withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'
import { fail, gated, hang, succeed } from '#tests/support/fake-executor.ts'
import { insertJob, jobState, runsOf, setJob } from '#tests/support/scheduler-fixtures.ts'
import type { RunExecutor } from '#server/runs/executor.ts'

const suite = withSchedulerDatabase()
const db = suite.db

const setup = (start: string | Date, executor: RunExecutor, leaseMs?: number) =>
  manualCore(db(), start, executor, { leaseMs })

it('retries a failed run after 30 s, then 1 min, and stops when the retries are used up', async () => {
  const { clock, tick } = setup('2026-07-01T07:00:00.005Z', fail('the API said no'))
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '0 7 * * *', retries: 2 },
    new Date('2026-07-01T06:00:00Z'),
  )
  await tick()
  let runs = await runsOf(db(), id)
  expect(runs.map((r) => [r.attempt, r.status, r.trigger])).toEqual([
    [1, 'error', 'schedule'],
    [2, 'queued', 'retry'],
  ])
  expect(runs[0]!.error).toBe('the API said no')
  expect(runs[0]!.reason).toBe('an error stopped it; retrying in 30 s (attempt 2 of 3)')
  expect(runs[1]!.notBefore!.getTime() - runs[0]!.finishedAt!.getTime()).toBe(30_000)
  expect(runs[1]!.scheduledFor).toEqual(runs[0]!.scheduledFor)

  await clock.advance(29_000)
  expect((await tick()).started).toBe(0)
  await clock.advance(1_000)
  expect((await tick()).started).toBe(1)
  runs = await runsOf(db(), id)
  expect(runs[2]!.notBefore!.getTime() - runs[1]!.finishedAt!.getTime()).toBe(60_000)
  expect(runs[1]!.reason).toBe('an error stopped it; retrying in 1 min (attempt 3 of 3)')

  await clock.advance(60_000)
  expect((await tick()).started).toBe(1)
  runs = await runsOf(db(), id)
  expect(runs.map((r) => [r.attempt, r.status])).toEqual([
    [1, 'error'],
    [2, 'error'],
    [3, 'error'],
  ])
  expect(runs[2]!.reason).toBe('an error stopped it')
  // One slot failed (after its retries): one failure towards the auto-pause, not three.
  expect(await jobState(db(), id)).toMatchObject({ lastStatus: 'error', consecutiveFailures: 1 })
})

it("a retry waiting out its backoff when the job is paused is skipped with it (a person's Retry is not)", async () => {
  const { clock, tick } = setup('2026-07-01T07:00:00.005Z', fail('the API said no'))
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '0 7 * * *', retries: 2 },
    new Date('2026-07-01T06:00:00Z'),
  )
  await tick()
  await setJob(db(), id, { enabled: false })
  await clock.advance(30_000)
  expect((await tick()).started).toBe(0)
  const runs = await runsOf(db(), id)
  expect(runs.map((r) => [r.attempt, r.status, r.trigger])).toEqual([
    [1, 'error', 'schedule'],
    [2, 'skipped', 'retry'],
  ])
  expect(runs[1]!.reason).toBe('the job was paused before this run could start')
})

it('a retry that succeeds resets the failure count', async () => {
  let calls = 0
  const flaky: RunExecutor = async (ctx) => {
    if (++calls === 1) throw new Error('flaky')
    return succeed(ctx)
  }
  const { clock, tick } = setup('2026-07-01T07:00:00.005Z', flaky)
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '0 7 * * *', retries: 1 },
    new Date('2026-07-01T06:00:00Z'),
  )
  await tick()
  await clock.advance(30_000)
  await tick()
  expect((await runsOf(db(), id)).map((r) => r.status)).toEqual(['error', 'success'])
  expect(await jobState(db(), id)).toMatchObject({
    lastStatus: 'success',
    consecutiveFailures: 0,
    lastError: null,
  })
})

it('stops a run past timeoutMinutes: timed_out, the executor is aborted, and it counts as a failure', async () => {
  const gate = gated()
  const { clock, core } = setup('2026-07-01T07:00:00.005Z', gate.executor)
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '0 7 * * *', timeoutMinutes: 3 },
    new Date('2026-07-01T06:00:00Z'),
  )
  await core.tick()
  await gate.untilStarted(1)
  await clock.advance(3 * 60_000 - 1)
  expect(gate.started[0]!.signal.aborted).toBe(false)
  await clock.advance(1)
  await core.idle()
  expect(gate.started[0]!.signal.aborted).toBe(true)
  const [run] = await runsOf(db(), id)
  expect(run).toMatchObject({
    status: 'timed_out',
    error: 'The run took longer than its 3-minute timeout and was stopped',
    reason: 'it ran longer than its 3-minute time limit',
  })
  expect(run!.finishedAt!.getTime() - run!.startedAt!.getTime()).toBe(3 * 60_000)
  expect(await jobState(db(), id)).toMatchObject({ lastStatus: 'timed_out', consecutiveFailures: 1 })
})

it('a run whose lease lapsed becomes interrupted (with a reason) and is retried', async () => {
  const clock = new ManualClock('2026-07-01T07:00:00.005Z')
  const dead = createSchedulerCore({ db: db(), instance: 'dead-1', executor: hang, clock, leaseMs: 60_000 })
  const alive = createSchedulerCore({
    db: db(),
    instance: 'alive-1',
    executor: succeed,
    clock,
    leaseMs: 60_000,
  })
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '0 7 * * *', retries: 1 },
    new Date('2026-07-01T06:00:00Z'),
  )
  await dead.tick()
  // `dead` never renews its lease (no heartbeat runs): as if it had been killed.
  await clock.advance(60_000)
  expect((await alive.tick()).reaped).toBe(0)
  await clock.advance(1)
  expect((await alive.tick()).reaped).toBe(1)
  let runs = await runsOf(db(), id)
  expect(runs[0]).toMatchObject({ status: 'interrupted', instance: 'dead-1' })
  expect(runs[0]!.reason).toMatch(/^the server running it \(dead-1\) stopped responding; retrying in 30 s/)
  expect(runs[0]!.finishedAt!.getTime()).toBeGreaterThan(runs[0]!.leaseExpiresAt?.getTime() ?? 0)
  await clock.advance(30_000)
  await alive.tick()
  await alive.idle()
  runs = await runsOf(db(), id)
  expect(runs.map((r) => [r.attempt, r.status, r.trigger, r.instance])).toEqual([
    [1, 'interrupted', 'schedule', 'dead-1'],
    [2, 'success', 'retry', 'alive-1'],
  ])
  // The dead instance's late answer (were it alive after all) is dropped: the run is no longer its to settle.
  await dead.shutdown(0)
  expect((await runsOf(db(), id)).map((r) => r.status)).toEqual(['interrupted', 'success'])
})

it(`pauses a job after ${AUTO_PAUSE_AFTER} failed runs in a row; re-enabling resumes from now without a burst`, async () => {
  // The jobs service computes the next run from the real database clock, so this test lives in the past.
  const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60 * 60_000)
  const { clock, tick } = setup(start, fail('bad credentials'))
  const id = await insertJob(db(), suite.owner, { schedule: '* * * * *', scope: 'shared' }, start)
  for (let i = 0; i < AUTO_PAUSE_AFTER + 2; i++) {
    await clock.advance(60_000)
    await tick()
  }
  let runs = await runsOf(db(), id)
  expect(runs).toHaveLength(AUTO_PAUSE_AFTER)
  expect(runs.every((r) => r.status === 'error')).toBe(true)
  expect(runs.at(-1)!.reason).toBe(
    `an error stopped it; the job paused itself after ${AUTO_PAUSE_AFTER} failed runs in a row`,
  )
  let job = await jobState(db(), id)
  expect(job.suspendedReason).toBe(
    `Paused after ${AUTO_PAUSE_AFTER} failed runs in a row (last: error: bad credentials). Fix the cause, then enable the job again.`,
  )
  expect(job.enabled).toBe(true)

  // Scheduled from the enabling, not from the paused hour (a second of slack for the database's
  // clock against this one's), however long the call took.
  const enabledAt = Date.now()
  await setJobEnabled(suite.owner.caller, id, true)
  job = await jobState(db(), id)
  expect(job.suspendedReason).toBeNull()
  expect(job.nextRunAt!.getTime()).toBeGreaterThan(enabledAt - 1_000)
  const before = runs.length
  // Far in the future relative to the paused hour: still only the next slot runs, no missed rows.
  await clock.set(job.nextRunAt!)
  await tick()
  runs = await runsOf(db(), id)
  expect(runs.slice(before).map((r) => [r.scheduledFor.toISOString(), r.status])).toEqual([
    [job.nextRunAt!.toISOString(), 'error'],
  ])
})
