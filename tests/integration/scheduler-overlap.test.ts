/**
 * The overlap policy with a manual clock: a slot due while the previous run is still going is
 * recorded `skipped` (overlap: skip), or queued behind it, at most one (overlap: queue). A queued
 * run of a job that was paused meanwhile is skipped too.
 */
import { expect, it } from 'vitest'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { ManualClock, settle } from '#tests/support/clock.ts'
import { manualCore, withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'
import { gated, ok } from '#tests/support/fake-executor.ts'
import { insertJob, runsOf, setJob } from '#tests/support/scheduler-fixtures.ts'

const suite = withSchedulerDatabase()
const db = suite.db
function setup(start: string) {
  const gate = gated()
  return { ...manualCore(db(), start, gate.executor), gate }
}
const summary = (runs: Awaited<ReturnType<typeof runsOf>>) =>
  runs.map((r) => [r.scheduledFor.toISOString().slice(11, 16), r.status])

it('overlap: skip records the slot as skipped, with a reason, while the previous run is still going', async () => {
  const { clock, gate, core } = setup('2026-06-01T08:00:00.010Z')
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '* * * * *', overlap: 'skip' },
    new Date('2026-06-01T07:59:30Z'),
  )
  await core.tick()
  await gate.untilStarted(1)
  await clock.advance(60_000)
  await core.tick()
  gate.release()
  await core.idle()
  await clock.advance(60_000)
  await core.tick()
  await gate.untilStarted(2)
  gate.release()
  await core.idle()
  const runs = await runsOf(db(), id)
  expect(summary(runs)).toEqual([
    ['08:00', 'success'],
    ['08:01', 'skipped'],
    ['08:02', 'success'],
  ])
  expect(runs[1]!.reason).toBe('the previous run was still running (overlap: skip)')
  expect(runs[1]!.finishedAt).not.toBeNull()
})

it('overlap: queue runs the next slot right after the running one, keeps at most one queued, skips the rest', async () => {
  const { clock, gate, core } = setup('2026-06-01T09:00:00.010Z')
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '* * * * *', overlap: 'queue' },
    new Date('2026-06-01T08:59:30Z'),
  )
  await core.tick()
  await clock.advance(60_000)
  await core.tick()
  await clock.advance(60_000)
  await core.tick()
  expect(summary(await runsOf(db(), id))).toEqual([
    ['09:00', 'running'],
    ['09:01', 'queued'],
    ['09:02', 'skipped'],
  ])
  expect(gate.started).toHaveLength(1)

  await clock.advance(10_000)
  await gate.untilStarted(1)
  gate.release(ok('first'))
  await settle()
  // The finished run frees the job; the next tick starts the queued one (the shell ticks at once).
  await core.idle()
  expect((await core.tick()).started).toBe(1)
  await gate.untilStarted(2)
  gate.release(ok('second'))
  await core.idle()

  const runs = await runsOf(db(), id)
  expect(summary(runs)).toEqual([
    ['09:00', 'success'],
    ['09:01', 'success'],
    ['09:02', 'skipped'],
  ])
  expect(runs[1]!.reason).toBe('waits for the previous run to finish (overlap: queue)')
  expect(runs[1]!.startedAt!.getTime()).toBeGreaterThanOrEqual(runs[0]!.finishedAt!.getTime())
  expect(runs[2]!.reason).toMatch(/one run was already queued/)
})

it('a queued run whose job was paused before it could start is skipped, not run', async () => {
  const { clock, gate, core } = setup('2026-06-01T10:00:00.010Z')
  const id = await insertJob(
    db(),
    suite.owner,
    { schedule: '* * * * *', overlap: 'queue' },
    new Date('2026-06-01T09:59:30Z'),
  )
  await core.tick()
  await clock.advance(60_000)
  await core.tick()
  await setJob(db(), id, { enabled: false })
  await gate.untilStarted(1)
  gate.release()
  await core.idle()
  await core.tick()
  await core.idle()
  const runs = await runsOf(db(), id)
  expect(summary(runs)).toEqual([
    ['10:00', 'success'],
    ['10:01', 'skipped'],
  ])
  expect(runs[1]!.reason).toBe('the job was paused before this run could start')
  expect(gate.started).toHaveLength(1)
})

it('a slot that finds every worker busy waits as queued and starts when one frees up', async () => {
  const clock = new ManualClock('2026-06-01T11:00:00.010Z')
  const gate = gated()
  const core = createSchedulerCore({
    db: db(),
    instance: 'test-b',
    executor: gate.executor,
    clock,
    concurrency: 1,
    leaseMs: 86_400_000,
  })
  const a = await insertJob(db(), suite.owner, { schedule: '0 11 * * *' }, new Date('2026-06-01T10:59:00Z'))
  const b = await insertJob(db(), suite.owner, { schedule: '0 11 * * *' }, new Date('2026-06-01T10:59:00Z'))
  expect((await core.tick()).claimed).toBe(2)
  const statuses = async () => [(await runsOf(db(), a))[0]!.status, (await runsOf(db(), b))[0]!.status].sort()
  expect(await statuses()).toEqual(['queued', 'running'])
  await gate.untilStarted(1)
  gate.release()
  await core.idle()
  expect((await core.tick()).started).toBe(1)
  await gate.untilStarted(2)
  gate.release()
  await core.idle()
  expect(await statuses()).toEqual(['success', 'success'])
})
