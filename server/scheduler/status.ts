/**
 * Is anything firing jobs? The status API lists live scheduler instances (opaque ids, last seen)
 * and the caller's organisation's due backlog and runs; the layout's banner appears when no
 * scheduler was seen recently and then says what of the organisation's work is waiting.
 */
import { sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { INSTANCE_STALE_MS } from './instances.ts'
import { queryRows, toDate } from '../db/sql.ts'

export type SchedulerStatus = {
  /**
   * Instances that heartbeat within the last 90 s and have not stopped, as opaque ids (hostnames
   * and pids are in the logs only: any signed-in person may read this).
   */
  instances: { id: string; lastSeenAt: string }[]
  /** When any scheduler last heartbeat (null: never). */
  lastSeenAt: string | null
  /** The caller's organisation's enabled jobs already due (normally 0: claimed within milliseconds). */
  dueBacklog: number
  /** The caller's organisation's runs waiting to start, and running. */
  queued: number
  running: number
}

const iso = (v: unknown) => toDate(v)?.toISOString() ?? null

/** Scheduler health for a person in `orgId`: instances, and counts of that organisation only. */
export async function getSchedulerStatus(orgId: string, db: Db = getDb()): Promise<SchedulerStatus> {
  const instances = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, last_seen_at from scheduler_instances
        where stopped_at is null and last_seen_at > now() - ${INSTANCE_STALE_MS} * interval '1 millisecond'
        order by started_at`,
  )
  const [counts] = await queryRows<Record<string, unknown>>(
    db,
    sql`select
          (select count(*) from jobs where org_id = ${orgId} and enabled and suspended_reason is null
            and next_run_at <= now()) as due,
          (select count(*) from job_runs where org_id = ${orgId} and status = 'queued') as queued,
          (select count(*) from job_runs where org_id = ${orgId} and status = 'running') as running,
          (select max(last_seen_at) from scheduler_instances) as last_seen`,
  )
  return {
    instances: instances.map((i) => ({ id: String(i.id), lastSeenAt: iso(i.last_seen_at)! })),
    lastSeenAt: iso(counts?.last_seen),
    dueBacklog: Number(counts?.due ?? 0),
    queued: Number(counts?.queued ?? 0),
    running: Number(counts?.running ?? 0),
  }
}

export type SchedulerWarning = {
  silentMinutes: number | null
  /** The caller's organisation's work that is waiting for a scheduler: due jobs and queued runs. */
  dueBacklog: number
  queued: number
}

/** Milliseconds since any scheduler last heartbeat (null: never), as a scalar subquery. */
export const schedulerSilenceMs = sql`(select extract(epoch from now() - max(last_seen_at)) * 1000
  from scheduler_instances)`

/**
 * The layout's warning: null while some scheduler heartbeat within 90 s; else how long it has been
 * and what of the caller's organisation is waiting.
 */
export async function getSchedulerWarning(orgId: string, db: Db = getDb()): Promise<SchedulerWarning | null> {
  const [row] = await queryRows<{ seen_ms: unknown }>(db, sql`select ${schedulerSilenceMs} as seen_ms`)
  return schedulerWarningAfter(row?.seen_ms, orgId, db)
}

/**
 * {@link getSchedulerWarning} once {@link schedulerSilenceMs} is read (a page's layout reads it with
 * the rest of what it shows): no further query while a scheduler is alive.
 */
export async function schedulerWarningAfter(
  silenceMs: unknown,
  orgId: string,
  db: Db = getDb(),
): Promise<SchedulerWarning | null> {
  const seenMs = silenceMs === null || silenceMs === undefined ? null : Number(silenceMs)
  if (seenMs !== null && seenMs <= INSTANCE_STALE_MS) return null
  const { dueBacklog, queued } = await getSchedulerStatus(orgId, db)
  return {
    silentMinutes: seenMs === null ? null : Math.max(1, Math.round(seenMs / 60_000)),
    dueBacklog,
    queued,
  }
}

/**
 * What to tell someone who just queued a run while no scheduler is alive: the run would sit
 * "Queued" with no explanation otherwise. Null when a scheduler will pick it up.
 */
export async function queuedRunNotice(orgId: string, db: Db = getDb()): Promise<string | null> {
  const warning = await getSchedulerWarning(orgId, db)
  if (!warning) return null
  return (
    'No scheduler is running, so this run waits in the queue until one starts ' +
    '(an instance with SCHEDULER_ENABLED=true).'
  )
}
