/**
 * The scheduler's core, with no timers of its own: `tick()` does one round of work (reap lapsed
 * leases, start ready queued runs, claim due jobs) and says how long to sleep. The shell in
 * scheduler.ts calls it in a loop; tests call it directly with a manual clock.
 */
import type { Db } from '../db/client.ts'
import type { RunExecutor } from '../runs/executor.ts'
import type { StartedRun } from '../runs/run-job.ts'
import { claimDueJobs } from './claim.ts'
import { databaseClock, sleep, type Clock } from './clock.ts'
import { readPendingWork } from './pending.ts'
import { reapExpiredLeases } from './reaper.ts'
import { executeRun, type AbortCause, type RunnerDeps } from './runner.ts'
import { startQueuedRuns } from './start-queued.ts'
import { fullOrgs, type OrgShare } from './org-share.ts'
import type { NextRunFn } from '../runs/policy.ts'

export type CoreOptions = {
  /** Where runs record their outcome. */
  db: Db
  /**
   * Where ticks read and claim (default `db`). The shell gives the loop a pool of its own, so a
   * burst of finishing runs never holds up claiming the next slots.
   */
  loopDb?: Db
  instance: string
  executor: RunExecutor
  clock?: Clock
  /** Runs executing at once on this instance (SCHEDULER_CONCURRENCY). */
  concurrency?: number
  /**
   * Runs of one organisation executing at once on this instance (SCHEDULER_ORG_CONCURRENCY;
   * default half of `concurrency`, at least 1): no organisation takes every slot (org-share.ts).
   */
  orgConcurrency?: number
  /** How long a run stays ours without a heartbeat. */
  leaseMs?: number
  /**
   * Jobs locked per claim transaction (default 2,000: well past any concurrency cap, so a burst is
   * recorded in a few transactions; see bench/RESULTS.md). Bigger batches record a burst sooner but
   * hold their row locks longer; after long downtime each job may add up to 100 missed rows.
   */
  claimBatch?: number
  backoffMs?: readonly number[]
  next?: NextRunFn
  /**
   * Told about each run settled here or reaped here, with its final row (main.ts: delivery and
   * alerts). Must not throw or block.
   */
  afterSettle?: RunnerDeps['afterSettle']
  /** Called when a run settles: capacity is free, and a queued run may be able to start. */
  onSettled?: () => void
}

export type TickResult = {
  reaped: number
  started: number
  claimed: number
  /** The database clock when the tick began. */
  at: Date
  /** How long until there may be work again (0: tick again now). Uncapped. */
  sleepMs: number
}

/** When something is due but another instance holds it, look again after this long. */
const CONTENDED_RETRY_MS = 100

export type SchedulerCore = ReturnType<typeof createSchedulerCore>

export function createSchedulerCore(options: CoreOptions) {
  const { db, instance } = options
  const loopDb = options.loopDb ?? db
  const clock = options.clock ?? databaseClock
  const concurrency = options.concurrency ?? 8
  const leaseMs = options.leaseMs ?? 60_000
  const claimBatch = options.claimBatch ?? 2_000
  const orgConcurrency = Math.min(
    concurrency,
    options.orgConcurrency ?? Math.max(1, Math.floor(concurrency / 2)),
  )
  const flights = new Map<string, { orgId: string; controller: AbortController; done: Promise<void> }>()
  let claiming = true

  const free = () => concurrency - flights.size
  /** How many runs each organisation executes here now, and its cap. */
  function share(): OrgShare {
    const running = new Map<string, number>()
    for (const { orgId } of flights.values()) running.set(orgId, (running.get(orgId) ?? 0) + 1)
    return { running, cap: orgConcurrency }
  }

  function launch(started: StartedRun[]) {
    for (const s of started) {
      const controller = new AbortController()
      const { executor, backoffMs, afterSettle } = options
      const deps = { db, clock, instance, executor, backoffMs, afterSettle }
      const done = executeRun(deps, s, controller).finally(() => {
        flights.delete(s.run.id)
        options.onSettled?.()
      })
      flights.set(s.run.id, { orgId: s.run.orgId, controller, done })
    }
  }

  /** The pending-work read, with the heartbeat folded in when asked; aborts runs it no longer holds. */
  async function readPending(heartbeat: boolean) {
    const runIds = [...flights.keys()]
    const beat = heartbeat ? { instance, runIds, leaseMs } : undefined
    const pending = await readPendingWork(clock.sqlNow(), loopDb, beat, fullOrgs(share()))
    if (pending.held) {
      const held = new Set(pending.held)
      const lost: AbortCause = { kind: 'lease-lost' }
      for (const id of runIds) if (!held.has(id)) flights.get(id)?.controller.abort(lost)
    }
    return pending
  }

  /**
   * One round of work. With `heartbeat`, the same first statement marks this instance alive and
   * renews the leases of exactly the runs executing here (none other: a row left `running` by a
   * run that could not settle must lapse and be reaped).
   */
  async function tick(request: { heartbeat?: boolean } = {}): Promise<TickResult> {
    const pending = await readPending(request.heartbeat ?? false)
    const now = pending.now.getTime()
    const result: TickResult = { reaped: 0, started: 0, claimed: 0, at: pending.now, sleepMs: 0 }
    const reap = async () => {
      const reaped = await reapExpiredLeases(
        { now: () => clock.sqlNow(), backoffMs: options.backoffMs },
        // The loop's own pool: runs' statements on the main pool must not delay reaping.
        loopDb,
      )
      result.reaped += reaped.length
      // A reaped run has ended as surely as one settled here: its result and the alert policy go
      // through the same hook (which ignores a failure that will be retried; its last attempt decides).
      for (const run of reaped) options.afterSettle?.(run)
    }
    // When the next lease lapses, on this process's timer (a burst's claim batches may outlast it).
    let leaseLapsesAt = pending.nextLeaseAt
      ? performance.now() + pending.nextLeaseAt.getTime() - now
      : Infinity
    if (pending.nextLeaseAt && pending.nextLeaseAt.getTime() < now) {
      await reap()
      leaseLapsesAt = Infinity
    }
    if (!claiming) return { ...result, sleepMs: Infinity }
    if (pending.nextQueuedAt && pending.nextQueuedAt.getTime() <= now && free() > 0) {
      const started = await startQueuedRuns(
        { now: clock.sqlNow(), instance, capacity: free(), leaseMs, share: share() },
        loopDb,
      )
      launch(started)
      result.started += started.length
    }
    if (pending.nextDueAt && pending.nextDueAt.getTime() <= now) {
      for (let claimed = claimBatch; claimed === claimBatch && claiming;) {
        const batch = {
          now: clock.sqlNow(),
          instance,
          limit: claimBatch,
          capacity: free(),
          share: share(),
          leaseMs,
          next: options.next,
        }
        const out = await claimDueJobs(batch, loopDb)
        launch(out.started)
        claimed = out.claimed
        result.claimed += out.claimed
        result.started += out.started.length
        // A dead instance's runs are not left waiting behind the rest of a burst.
        if (performance.now() >= leaseLapsesAt) {
          leaseLapsesAt = Infinity
          await reap()
        }
      }
    }
    if (result.reaped + result.started + result.claimed > 0) return result
    const waits = [pending.nextDueAt, free() > 0 ? pending.nextQueuedAt : null, pending.nextLeaseAt]
      .filter((d): d is Date => d !== null)
      .map((d) => d.getTime() - now + (d === pending.nextLeaseAt ? 1 : 0))
    const sleepMs = Math.max(0, Math.min(Infinity, ...waits))
    // Due now yet nothing claimed: another instance holds those rows and is about to move them.
    return { ...result, sleepMs: sleepMs === 0 ? CONTENDED_RETRY_MS : sleepMs }
  }

  /** Stops claiming; waits up to `graceMs` for running work, then interrupts what is left. */
  async function shutdown(graceMs: number): Promise<void> {
    claiming = false
    const all = () => Promise.all([...flights.values()].map((f) => f.done))
    if (graceMs > 0) {
      const grace = new AbortController()
      await Promise.race([all(), sleep(clock, graceMs, grace.signal)])
      grace.abort()
    }
    const cause: AbortCause = { kind: 'shutdown', graceMs }
    for (const flight of flights.values()) flight.controller.abort(cause)
    await all()
  }

  /** The heartbeat alone (during the shutdown grace period, when ticks have stopped). */
  const heartbeat = async () => void (await readPending(true))

  return {
    instance,
    tick,
    shutdown,
    heartbeat,
    /** Resolves when every run started so far has settled (tests). */
    idle: async () => {
      while (flights.size > 0) await Promise.all([...flights.values()].map((f) => f.done))
    },
    /** Ids of the runs executing here. */
    runningIds: () => [...flights.keys()],
    get inFlight() {
      return flights.size
    },
    get claiming() {
      return claiming
    },
  }
}
