/**
 * One cheap query per idle tick: when is the next thing to do? Each part reads a partial index
 * (jobs_due_idx, job_runs_ready_idx, job_runs_active_idx), so the cost does not grow with the number of jobs (invariant 3).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { queryRows, toDate } from '../db/sql.ts'

export type PendingWork = {
  /** The database clock. */
  now: Date
  /** Earliest next_run_at of an enabled, unsuspended job. */
  nextDueAt: Date | null
  /** Earliest start time of a queued run whose job has nothing running. */
  nextQueuedAt: Date | null
  /** Earliest lease expiry of a running run. */
  nextLeaseAt: Date | null
}

export async function readPendingWork(now: SQL, db: Db): Promise<PendingWork> {
  const [row] = await queryRows(
    db,
    sql`select ${now} as now,
          (select min(next_run_at) from jobs where enabled and suspended_reason is null) as next_due,
          (select coalesce(q.not_before, q.scheduled_for) from job_runs q
            where q.status = 'queued'
              and not exists (select 1 from job_runs r where r.job_id = q.job_id and r.status = 'running')
            order by coalesce(q.not_before, q.scheduled_for)
            limit 1
          ) as next_queued,
          (select min(lease_expires_at) from job_runs where status = 'running') as next_lease`,
  )
  return {
    now: toDate(row?.now)!,
    nextDueAt: toDate(row?.next_due),
    nextQueuedAt: toDate(row?.next_queued),
    nextLeaseAt: toDate(row?.next_lease),
  }
}
