/**
 * The job as a run sees it. Both ways a run starts (the claim of a due slot, the start of a queued
 * run) read the job with {@link selectRunJob} and map it with {@link toRunJob}, and write the job's
 * run state with {@link recordRunStarts}: one place to change when a job gains a field runs need.
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm'
import { jobs } from '../db/schema/app.ts'
import { RUN_KEYS, type JobDefinition, type JobRunKey } from '../jobs/fields.ts'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import type { RunRow } from './schema.ts'

/** What an executor needs to know about the job it runs: its identity plus the fields the job-field
 * registry marks `run: true` (definition columns, read-only). */
export type RunJob = { id: string; orgId: string; name: string; createdBy: string } & Pick<
  JobDefinition,
  JobRunKey
>

/** A run this instance started, with what its executor needs to know about the job. */
export type StartedRun = { run: RunRow; job: RunJob }

/** A raw jobs row as {@link selectRunJob} returns it, before {@link toRunJob}: identity columns by
 * their SQL names, the registry's run fields already under their field names. */
export type RunJobRow = { id: string; org_id: string; name: string; created_by: string } & Pick<
  JobDefinition,
  JobRunKey
>

const columns = getTableColumns(jobs)
const runFieldList = sql.join(
  RUN_KEYS.map((key) => sql`${sql.identifier(columns[key].name)} as ${sql.identifier(key)}`),
  sql`, `,
)

/** `select <RunJob columns>, <extra> from jobs <rest>`: `rest` holds the where, order and locks. */
export const selectRunJob = (extra: SQL, rest: SQL) =>
  sql`select id, org_id, name, created_by, ${runFieldList}, ${extra} from jobs ${rest}`

export function toRunJob(row: RunJobRow): RunJob {
  const fields = Object.fromEntries(RUN_KEYS.map((key) => [key, row[key]])) as Pick<JobDefinition, JobRunKey>
  return { id: row.id, orgId: row.org_id, name: row.name, createdBy: row.created_by, ...fields }
}

/** One job's run-state change: `started` marks a run of it running now; `nextRunAt` (when given) moves its next slot. */
export type RunStart = {
  id: string
  started: boolean
  nextRunAt?: Date | null
  /** Pauses the job with this reason (its schedule has no slot left: a one-shot that fired). */
  suspend?: string
}

/** Writes the run state of jobs whose runs start (and, for the claim, their next slot) in one statement. */
export async function recordRunStarts(starts: RunStart[], now: SQL, db: Db): Promise<void> {
  if (starts.length === 0) return
  const rows = starts.map((s) => ({
    id: s.id,
    started: s.started,
    advance: s.nextRunAt !== undefined,
    next_run_at: s.nextRunAt?.toISOString() ?? null,
    suspend: s.suspend ?? null,
  }))
  await queryRows(
    db,
    sql`update jobs j set state_updated_at = ${now},
          next_run_at = case when u.advance then u.next_run_at else j.next_run_at end,
          last_run_at = case when u.started then ${now} else j.last_run_at end,
          last_status = case when u.started then 'running' else j.last_status end,
          last_denied_commands = case when u.started then 0 else j.last_denied_commands end,
          suspended_reason = coalesce(j.suspended_reason, u.suspend)
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as u(id text, started boolean, advance boolean, next_run_at timestamptz, suspend text)
        where j.id = u.id`,
  )
}
