/**
 * The scheduler's timer shell: loop `core.tick()`, sleep until the next due time (capped at
 * 30 s, woken early by onJobsChanged and by settled runs), fold the heartbeat (instance alive,
 * leases of its runs) into a tick's first statement every heartbeatMs, prune old history. Started by the server entry, never at import.
 */
import os from 'node:os'
import type { SQL } from 'drizzle-orm'
import { getDbHandle, openDatabase, type DbHandle } from '../db/client.ts'
import { env } from '../env.ts'
import type { RunExecutor } from '../runs/executor.ts'
import { logger } from '../lib/logger.ts'
import { databaseClock, sleep } from './clock.ts'
import { createSchedulerCore, type CoreOptions, type SchedulerCore } from './core.ts'
import { makeInstanceId, markInstanceStopped, pruneInstances, registerInstance } from './instances.ts'
import {
  deleteOldAudit,
  deleteOldAuditVolumes,
  deleteOldChatTurns,
  deleteOldReadNotices,
  deleteOldRuns,
} from './retention.ts'
import { deleteOldDeletedSpend } from '../runs/deleted-spend.ts'
import { deleteOldOrganizationDeletions } from '../accounts/organization-deletions.ts'
import { onJobsChanged, onPlaceChanged, type PlaceChange } from '../db/signal.ts'
import { cancelRunsOf } from '../runs/control.ts'

export type SchedulerOptions = Partial<Omit<CoreOptions, 'db' | 'instance' | 'onSettled'>> & {
  /** The database (default: the process's handle). Tests open one per instance. */
  handle?: DbHandle
  instanceId?: string
  /** Executes each run. The server entry passes the agent's; the scheduler never picks one itself. */
  executor: RunExecutor
  /** Lease renewal and instance heartbeat interval (default leaseMs / 4). */
  heartbeatMs?: number
  /** The longest sleep between ticks (default 30 s). */
  maxSleepMs?: number
  /** SIGTERM grace (default SHUTDOWN_GRACE_SECONDS). */
  graceMs?: number
  /** History kept, in days (default RUN_HISTORY_DAYS). */
  retentionDays?: number
  /**
   * Periodic checks on the scheduler's clock (main.ts: the dead-man's switch, due delivery
   * retries); errors are logged. The first runs `firstMs` after start (default `everyMs`).
   */
  watchers?: { name: string; everyMs: number; firstMs?: number; run: (now: SQL) => Promise<unknown> }[]
}

export type RunningScheduler = {
  name: string
  instanceId: string
  core: SchedulerCore
  /** Stops claiming, lets runs finish within the grace period, interrupts the rest. Safe to call twice. */
  stop(): Promise<void>
}

const RETENTION_EVERY_MS = 60 * 60_000
/** The loop's connections: a claim transaction, and the reaper's settles beside it (reaper.ts). */
const LOOP_POOL_SIZE = 4

export async function startScheduler(options: SchedulerOptions): Promise<RunningScheduler> {
  const config = env()
  const handle = options.handle ?? getDbHandle()
  const { db } = handle
  const clock = options.clock ?? databaseClock
  const instance = options.instanceId ?? makeInstanceId()
  const leaseMs = options.leaseMs ?? 60_000
  const heartbeatMs = options.heartbeatMs ?? Math.round(leaseMs / 4)
  const maxSleepMs = options.maxSleepMs ?? 30_000
  const graceMs = options.graceMs ?? config.SHUTDOWN_GRACE_SECONDS * 1000

  let wake = new AbortController()
  let poked = false
  const poke = () => {
    poked = true
    wake.abort()
  }
  // The loop's own small pool (Postgres): claims never wait behind the runs' statements.
  const loopHandle =
    handle.kind === 'postgres' && handle.url
      ? await openDatabase({ url: handle.url, poolSize: LOOP_POOL_SIZE, prepare: handle.prepare })
      : null
  const core = createSchedulerCore({
    ...options,
    db,
    loopDb: loopHandle?.db,
    instance,
    clock,
    leaseMs,
    executor: options.executor,
    concurrency: options.concurrency ?? config.SCHEDULER_CONCURRENCY,
    orgConcurrency: options.orgConcurrency ?? config.SCHEDULER_ORG_CONCURRENCY,
    onSettled: poke,
  })
  await registerInstance(instance, clock.sqlNow(), db)
  let stopped = false
  const timers = new AbortController()
  // The heartbeat rides on the loop's own pending-work read (one statement), once per heartbeatMs.
  let heartbeatDue = true
  // A change may be a cancelled run: with runs in flight the next tick renews at once, which
  // aborts any run this instance no longer holds (server/runs/control.ts cancelRun).
  const unlisten = await onJobsChanged(() => {
    if (core.inFlight > 0) heartbeatDue = true
    poke()
  }, handle)
  const unlistenPlaces = await onPlaceChanged((change) => void endRunsOf(change), handle)
  let cancelHeartbeatTimer = () => {}
  const armHeartbeat = () => {
    cancelHeartbeatTimer()
    cancelHeartbeatTimer = clock.setTimer(() => {
      heartbeatDue = true
      poke()
    }, heartbeatMs)
  }

  const loop = (async () => {
    for (let failures = 0; !stopped;) {
      poked = false
      let sleepMs: number
      const heartbeat = heartbeatDue
      heartbeatDue = false
      const tickStarted = performance.now()
      try {
        const result = await core.tick({ heartbeat })
        failures = 0
        // The wait was measured from the tick's first read: a tick that spent seconds claiming a
        // burst must not then sleep the whole wait again (a lapsed lease would be reaped late).
        sleepMs = Math.max(0, result.sleepMs - (performance.now() - tickStarted))
      } catch (err) {
        failures++
        sleepMs = Math.min(1000 * 2 ** failures, maxSleepMs)
        logger.error({ err, instance, retryInMs: sleepMs }, 'scheduler tick failed')
      }
      if (heartbeat) armHeartbeat()
      if (stopped || poked) continue
      wake = new AbortController()
      await sleep(clock, Math.min(sleepMs, maxSleepMs), wake.signal)
    }
  })()

  const every = (ms: number, fn: () => Promise<unknown>, what: string, firstMs = ms) =>
    (async () => {
      for (let wait = firstMs; !timers.signal.aborted; wait = ms) {
        await sleep(clock, wait, timers.signal)
        if (!timers.signal.aborted)
          await fn().catch((err) => logger.error({ err, instance }, `${what} failed`))
      }
    })()
  const retentionDays = options.retentionDays ?? config.RUN_HISTORY_DAYS
  const retention = every(
    RETENTION_EVERY_MS,
    async () => {
      const deleted = await deleteOldRuns(retentionDays, clock.sqlNow(), db)
      await pruneInstances(clock.sqlNow(), db)
      if (deleted > 0) logger.info({ deleted, retentionDays }, 'old runs deleted')
      const turns = await deleteOldChatTurns(retentionDays, clock.sqlNow(), db)
      if (turns > 0) logger.info({ deleted: turns, retentionDays }, 'old chat turns deleted')
      const notices = await deleteOldReadNotices(retentionDays, clock.sqlNow(), db)
      if (notices > 0) logger.info({ deleted: notices, retentionDays }, 'old read notices deleted')
      const auditDays = config.AUDIT_HISTORY_DAYS
      const audit = await deleteOldAudit(auditDays, clock.sqlNow(), db)
      if (audit > 0) logger.info({ deleted: audit, auditDays }, 'old audit rows deleted')
      await deleteOldAuditVolumes(clock.sqlNow(), db)
      await deleteOldDeletedSpend(clock.sqlNow(), db)
      await deleteOldOrganizationDeletions(clock.sqlNow(), db)
    },
    'history retention',
    // Soon after start too: a server restarted more often than hourly would otherwise never prune.
    60_000,
  )
  const watchers = (options.watchers ?? []).map((w) =>
    every(w.everyMs, () => w.run(clock.sqlNow()), w.name, w.firstMs ?? w.everyMs),
  )
  // The instance id is opaque (the status API shows it); where it runs is only logged.
  logger.info(
    {
      instance,
      hostname: os.hostname(),
      pid: process.pid,
      concurrency: options.concurrency ?? config.SCHEDULER_CONCURRENCY,
    },
    'scheduler started',
  )

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      stopped = true
      poke()
      await loop
      cancelHeartbeatTimer()
      // A closed database's unlisten resolves (db/client.ts); one that cannot be reached (Postgres
      // gone during a shutdown) must not cut short the grace the runs still finishing are given.
      await Promise.all([unlisten(), unlistenPlaces()]).catch((err) =>
        logger.warn({ err, instance }, 'could not unlisten'),
      )
      // Leases keep being renewed during the grace period, so nobody reaps runs still finishing.
      const graceBeat = every(heartbeatMs, core.heartbeat, 'scheduler heartbeat')
      await core.shutdown(graceMs)
      timers.abort()
      await Promise.all([graceBeat, retention, ...watchers])
      await markInstanceStopped(instance, clock.sqlNow(), db).catch((err) =>
        logger.warn({ err, instance }, 'could not mark the scheduler instance stopped'),
      )
      await loopHandle?.close()
      logger.info({ instance }, 'scheduler stopped')
    })())

  return { name: 'scheduler', instanceId: instance, core, stop }
}

/**
 * A person who left an organisation, or lost a role there, leaves nothing running (decision 0476):
 * their runs are cancelled as a cancel from the UI would, so the instance executing each aborts it
 * and kills the commands it started. Every scheduler hears the change; cancelling is idempotent, so
 * the first to settle a run wins. A removal takes queued runs too; a demotion only those going
 * (queued ones start later with the new role).
 */
async function endRunsOf(change: PlaceChange): Promise<void> {
  const [which, reason] =
    change.lost === 'membership'
      ? (['queued or running', 'cancelled: its person left the organisation'] as const)
      : (['running', `cancelled: its person's role changed to ${change.role}`] as const)
  await cancelRunsOf(change.orgId, change.userId, which, reason).catch((err: unknown) =>
    logger.warn({ err, ...change }, "could not cancel a departed member's runs"),
  )
}
