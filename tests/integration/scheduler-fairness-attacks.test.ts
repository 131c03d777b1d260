/**
 * Fairness between organisations (open sign-up: every organisation is a potential attacker). One
 * organisation's many every-minute jobs whose runs never end, or several such organisations,
 * try to hold every run slot of an instance so another organisation's due job waits behind them.
 * Runs wait at a gate the test opens; the core runs on a manual clock, and every wait is a poll.
 */
import { expect, it } from 'vitest'
import { ManualClock } from '#tests/support/clock.ts'
import { withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'
import { gated } from '#tests/support/fake-executor.ts'
import { createOwner, insertJob, runsOf, type Owner } from '#tests/support/scheduler-fixtures.ts'
import { createSchedulerCore } from '#server/scheduler/core.ts'

const suite = withSchedulerDatabase()
const db = suite.db
const DAY = 86_400_000

function setup(start: string) {
  const gate = gated()
  const clock = new ManualClock(start)
  // The defaults a deployment runs with: 8 runs at once, 4 of them for one organisation.
  const core = createSchedulerCore({
    db: db(),
    instance: 'fair-a',
    executor: gate.executor,
    clock,
    leaseMs: DAY,
  })
  return { clock, gate, core }
}

/** `count` every-minute jobs of `owner` whose first slot is the minute after `after`. */
const everyMinute = (owner: Owner, count: number, after: string) =>
  Promise.all(
    Array.from({ length: count }, () =>
      insertJob(db(), owner, { schedule: '* * * * *', overlap: 'skip' }, new Date(after)),
    ),
  )

const startedJobs = (gate: ReturnType<typeof gated>) => gate.started.map((ctx) => ctx.run.jobId)

it("one organisation's never-ending every-minute jobs leave room for another organisation's due job", async () => {
  const { clock, gate, core } = setup('2026-06-01T08:00:00.010Z')
  await everyMinute(suite.owner, 12, '2026-06-01T07:59:30Z')
  const victim = await createOwner(db(), 'Val Victim')
  const [victimJob] = await everyMinute(victim, 1, '2026-06-01T08:00:30Z')

  await core.tick()
  await expect.poll(() => core.inFlight).toBeGreaterThan(0)
  const attackerRunning = core.inFlight
  await clock.advance(60_000)
  await core.tick()

  // The victim's 08:01 slot starts at 08:01, beside the attacker's runs, not behind them.
  await expect.poll(() => startedJobs(gate)).toContain(victimJob)
  // Its share of the instance's 8 slots: half.
  expect(attackerRunning).toBe(4)
  expect((await runsOf(db(), victimJob!))[0]).toMatchObject({ status: 'running' })
  gate.release()
  await core.shutdown(0)
})

it('a queued run of an organisation with nothing running goes before older queued runs of busy organisations', async () => {
  const { clock, gate, core } = setup('2026-06-01T09:00:00.010Z')
  const first = await everyMinute(suite.owner, 6, '2026-06-01T08:59:30Z')
  const second = await everyMinute(await createOwner(db(), 'Bo Second'), 6, '2026-06-01T08:59:30Z')
  const victim = await createOwner(db(), 'Val Victim')
  const [victimJob] = await everyMinute(victim, 1, '2026-06-01T09:00:30Z')

  // Two organisations (one attacker can sign up twice) fill all 8 slots and queue 4 more at 09:00.
  await core.tick()
  await expect.poll(() => core.inFlight).toBe(8)
  await clock.advance(60_000)
  await core.tick()
  expect(startedJobs(gate)).not.toContain(victimJob)
  expect((await runsOf(db(), victimJob!))[0]).toMatchObject({ status: 'queued' })

  // One slot frees: the victim's 09:01 run takes it, ahead of the busy organisations' 09:00 ones.
  const busy = new Set([...first, ...second])
  gate.release(undefined, gate.started.find((ctx) => busy.has(ctx.run.jobId))!.run.id)
  await expect.poll(() => core.inFlight).toBe(7)
  await core.tick()
  await expect.poll(() => startedJobs(gate)).toContain(victimJob)
  gate.release()
  await core.shutdown(0)
})

it('queued runs of an organisation at its share do not keep the loop ticking until a slot of its frees', async () => {
  const { gate, core } = setup('2026-06-01T10:00:00.010Z')
  await everyMinute(suite.owner, 12, '2026-06-01T09:59:30Z')
  await core.tick()
  await expect.poll(() => gate.started.length).toBe(4)

  // 8 of its runs wait and 4 slots are free, but none of them may start here: sleep until 10:01,
  // not the 100 ms retry of work another instance holds (a busy loop of queue scans).
  const again = await core.tick()
  expect(again).toMatchObject({ started: 0, claimed: 0 })
  expect(again.sleepMs).toBe(60_000 - 10)
  gate.release()
  await core.shutdown(0)
})

it('a run whose executor never answers and ignores its abort frees its slot at the timeout (held)', async () => {
  const clock = new ManualClock('2026-06-01T11:00:00.010Z')
  let reached = 0
  // A model stream that never ends and never looks at the signal.
  const deaf = () => {
    reached++
    return new Promise<never>(() => {})
  }
  const core = createSchedulerCore({ db: db(), instance: 'fair-b', executor: deaf, clock, leaseMs: DAY })
  const job = { schedule: '0 * * * *', timeoutMinutes: 1 }
  const id = await insertJob(db(), suite.owner, job, new Date('2026-06-01T10:59:30Z'))
  await core.tick()
  await expect.poll(() => reached).toBe(1)
  await clock.advance(60_000)
  await expect.poll(() => core.inFlight).toBe(0)
  expect((await runsOf(db(), id))[0]).toMatchObject({ status: 'timed_out' })
})
