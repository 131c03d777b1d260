/**
 * History retention: finished runs and their transcripts, chat turns (decision 0504) and read
 * notices (0525) older than RUN_HISTORY_DAYS, and audit trails older than AUDIT_HISTORY_DAYS
 * (decision 0493), are deleted in small batches, so a cleanup never holds many locks at once. Runs
 * are found through job_runs_created_idx, chat turns and audit rows through a BRIN index on their
 * time (they are written in time order); notices by a scan of a table bounded per person. The
 * audit's daily volumes per person (decision 0500) are kept two days.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'

const BATCH = 1_000

/**
 * Runs `statement` (a delete of at most BATCH rows answering `select count(*)::int as n`) until
 * one deletes fewer; returns how many it deleted in all.
 */
async function inBatches(db: Db, statement: () => SQL): Promise<number> {
  let total = 0
  for (;;) {
    const rows = await queryRows<{ n: number }>(db, statement())
    const n = Number(rows[0]?.n ?? 0)
    total += n
    if (n < BATCH) return total
  }
}

/** Deletes finished runs created more than `days` ago; returns how many. */
export function deleteOldRuns(days: number, now: SQL, db: Db): Promise<number> {
  return inBatches(
    db,
    () =>
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
}

/**
 * Deletes the rows of `table` whose `column` (a time) is more than `days` ago and that match
 * `also`, a batch at a time; returns how many. Every table it serves has an `id` and a BRIN index
 * on that column, but notifications, whose rows are bounded per person instead (notices.ts).
 */
function deleteOlderThan(
  table: string,
  column: string,
  days: number,
  now: SQL,
  db: Db,
  also: SQL = sql`true`,
): Promise<number> {
  const [name, time] = [sql.identifier(table), sql.identifier(column)]
  return inBatches(
    db,
    () =>
      sql`with d as (
            delete from ${name} where id in (
              select id from ${name}
              where ${time} < ${now} - ${days} * interval '1 day' and ${also} limit ${BATCH})
            returning 1
          )
          select count(*)::int as n from d`,
  )
}

/**
 * Deletes chat turns started more than `days` ago; returns how many. A turn is a row of what chat
 * spent (Settings → Usage reads at most 90 days back), kept as long as runs are.
 */
export function deleteOldChatTurns(days: number, now: SQL, db: Db): Promise<number> {
  return deleteOlderThan('chat_turns', 'started_at', days, now, db)
}

/**
 * Deletes notices read and made more than `days` ago; returns how many (decision 0525). Unread
 * ones wait for their person, and each keeps only their newest NOTICES_KEPT per organisation.
 */
export function deleteOldReadNotices(days: number, now: SQL, db: Db): Promise<number> {
  return deleteOlderThan('notifications', 'created_at', days, now, db, sql`read_at is not null`)
}

/**
 * The audit trails retention prunes: an environment's commands and writes (one row per command a
 * member or an agent runs, so the largest by far), skills' reviews, jobs' changes and what admins
 * did to members' accounts. Each is read on its own page a page at a time.
 */
const AUDIT_TABLES = ['environment_audit', 'skill_audit', 'job_audit', 'member_audit'] as const

/** Deletes audit rows written more than `days` ago, from every trail; returns how many. */
export async function deleteOldAudit(days: number, now: SQL, db: Db): Promise<number> {
  let total = 0
  for (const table of AUDIT_TABLES) total += await deleteOlderThan(table, 'at', days, now, db)
  return total
}

/**
 * Deletes the daily audit volumes (audit-allowance.ts) of days before yesterday: only today's is
 * read, and a day's row lingers one more for a clock a little behind.
 */
export async function deleteOldAuditVolumes(now: SQL, db: Db): Promise<void> {
  await db.execute(sql`delete from audit_volume where day < (${now} at time zone 'utc')::date - 1`)
}
