/**
 * Is anything firing jobs? The status API lists live scheduler instances, the last tick, the due
 * backlog and what runs now; the layout asks only whether any scheduler was seen recently.
 */
import { sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { INSTANCE_STALE_MS } from './instances.ts'
import { queryRows, toDate } from '../db/sql.ts'

export type SchedulerStatus = {
  /** Instances that heartbeat within the last 90 s and have not stopped. */
  instances: {
    id: string
    hostname: string
    pid: number
    startedAt: string
    lastSeenAt: string
    lastTickAt: string | null
  }[]
  lastTickAt: string | null
  /** When any scheduler last heartbeat (null: never). */
  lastSeenAt: string | null
  /** Enabled jobs whose next run is already due (normally 0: they are claimed within milliseconds). */
  dueBacklog: number
  queued: number
  running: number
}

const iso = (v: unknown) => toDate(v)?.toISOString() ?? null

export async function getSchedulerStatus(db: Db = getDb()): Promise<SchedulerStatus> {
  const instances = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, hostname, pid, started_at, last_seen_at, last_tick_at from scheduler_instances
        where stopped_at is null and last_seen_at > now() - ${INSTANCE_STALE_MS} * interval '1 millisecond'
        order by started_at`,
  )
  const [counts] = await queryRows<Record<string, unknown>>(
    db,
    sql`select
          (select count(*) from jobs where enabled and suspended_reason is null and next_run_at <= now()) as due,
          (select count(*) from job_runs where status = 'queued') as queued,
          (select count(*) from job_runs where status = 'running') as running,
          (select max(last_seen_at) from scheduler_instances) as last_seen,
          (select max(last_tick_at) from scheduler_instances) as last_tick`,
  )
  return {
    instances: instances.map((i) => ({
      id: String(i.id),
      hostname: String(i.hostname),
      pid: Number(i.pid),
      startedAt: iso(i.started_at)!,
      lastSeenAt: iso(i.last_seen_at)!,
      lastTickAt: iso(i.last_tick_at),
    })),
    lastTickAt: iso(counts?.last_tick),
    lastSeenAt: iso(counts?.last_seen),
    dueBacklog: Number(counts?.due ?? 0),
    queued: Number(counts?.queued ?? 0),
    running: Number(counts?.running ?? 0),
  }
}

/** The layout's warning: null while some scheduler heartbeat within 90 s, else how long it has been. */
export async function getSchedulerWarning(
  db: Db = getDb(),
): Promise<{ silentMinutes: number | null } | null> {
  const [row] = await queryRows<{ seen_ms: unknown }>(
    db,
    sql`select extract(epoch from now() - max(last_seen_at)) * 1000 as seen_ms from scheduler_instances`,
  )
  const seenMs = row?.seen_ms === null || row?.seen_ms === undefined ? null : Number(row.seen_ms)
  if (seenMs !== null && seenMs <= INSTANCE_STALE_MS) return null
  return { silentMinutes: seenMs === null ? null : Math.max(1, Math.round(seenMs / 60_000)) }
}
