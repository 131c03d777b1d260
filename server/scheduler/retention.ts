/**
 * Run history retention (RUN_HISTORY_DAYS): old finished runs and their transcripts are deleted
 * in small batches through job_runs_created_idx, so a cleanup never holds many locks at once.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'

const BATCH = 1_000

/** Deletes finished runs created more than `days` ago; returns how many. */
export async function deleteOldRuns(days: number, now: SQL, db: Db): Promise<number> {
  let total = 0
  for (;;) {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`with d as (
            delete from job_runs where id in (
              select id from job_runs
              where created_at < ${now} - ${days} * interval '1 day' and status not in ('queued', 'running')
              limit ${BATCH})
            returning thread_id
          ), t as (
            delete from agent_threads where id in (select thread_id from d where thread_id is not null)
          )
          select count(*)::int as n from d`,
    )
    const n = Number(rows[0]?.n ?? 0)
    total += n
    if (n < BATCH) return total
  }
}
