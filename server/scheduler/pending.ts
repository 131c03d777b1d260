/**
 * One statement per tick: when is the next thing to do? Each part reads a partial index
 * (jobs_due_idx, job_runs_ready_idx, job_runs_active_idx), so the cost does not grow with the
 * number of jobs (invariant 3). When the heartbeat is due, the same statement also marks the
 * instance alive and renews the leases of the runs it is executing, so an idle instance costs one
 * statement per heartbeat interval, whatever the job count.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { plusMs, queryRows, toDate } from '../db/sql.ts'
import { notAmongOrgs } from './org-share.ts'

export type PendingWork = {
  /** The database clock. */
  now: Date
  /** Earliest next_run_at of an enabled, unsuspended job. */
  nextDueAt: Date | null
  /** Earliest start time of a queued run whose job has nothing running. */
  nextQueuedAt: Date | null
  /** Earliest lease expiry of a running run (after this statement's renewals). */
  nextLeaseAt: Date | null
  /** With a heartbeat: the runs whose lease was renewed (still ours); the others were reaped. */
  held: string[] | null
}

/** The heartbeat folded into the read: this instance is alive, and these runs are still executing here. */
export type Heartbeat = { instance: string; runIds: string[]; leaseMs: number }

const nextDue = sql`(select min(next_run_at) from jobs where enabled and suspended_reason is null)`
// Queued runs of organisations at their share of this instance (org-share.ts) are not ours to start:
// counting them would wake the loop again and again for work it must leave.
const nextQueued = (fullOrgs: string[]) => sql`(select coalesce(q.not_before, q.scheduled_for) from job_runs q
    where q.status = 'queued' and ${notAmongOrgs(fullOrgs)}
      and not exists (select 1 from job_runs r where r.job_id = q.job_id and r.status = 'running')
    order by coalesce(q.not_before, q.scheduled_for)
    limit 1)`

export async function readPendingWork(
  now: SQL,
  db: Db,
  beat?: Heartbeat,
  fullOrgs: string[] = [],
): Promise<PendingWork> {
  const [row] = await queryRows(
    db,
    beat
      ? sql`with seen as (
              update scheduler_instances set last_seen_at = ${now}, last_tick_at = ${now}
              where id = ${beat.instance}
            ), renewed as (
              update job_runs set lease_expires_at = ${plusMs(now, beat.leaseMs)}
              where id in (select jsonb_array_elements_text(${JSON.stringify(beat.runIds)}::jsonb))
                and instance = ${beat.instance} and status = 'running'
              returning id, lease_expires_at
            )
            select ${now} as now, ${nextDue} as next_due, ${nextQueued(fullOrgs)} as next_queued,
              least(
                (select min(lease_expires_at) from job_runs
                  where status = 'running' and id not in (select id from renewed)),
                (select min(lease_expires_at) from renewed)
              ) as next_lease,
              (select coalesce(json_agg(id), '[]'::json) from renewed) as held`
      : sql`select ${now} as now, ${nextDue} as next_due, ${nextQueued(fullOrgs)} as next_queued,
              (select min(lease_expires_at) from job_runs where status = 'running') as next_lease`,
  )
  const held = row?.held
  return {
    now: toDate(row?.now)!,
    nextDueAt: toDate(row?.next_due),
    nextQueuedAt: toDate(row?.next_queued),
    nextLeaseAt: toDate(row?.next_lease),
    held: beat ? ((typeof held === 'string' ? JSON.parse(held) : held) as string[]) : null,
  }
}
