/**
 * SQL for jobs and their audit trail. No rules here: the service decides who may do what and
 * passes the visibility condition in; this file only reads and writes rows.
 */
import {
  and,
  asc,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  ne,
  not,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { jobAudit, jobRuns, jobs, user } from '../db/schema/index.ts'
import type { JobListQuery } from './schema.ts'
import { queryRows } from '../db/sql.ts'
import { addAuditVolume } from '../accounts/audit-allowance.ts'

export type JobRow = typeof jobs.$inferSelect
export type NewJobRow = typeof jobs.$inferInsert
/** A job row with its creator's public details, as every read returns it. */
export type JobRecord = JobRow & { creatorEmail: string; creatorName: string }

export type AuditChanges = Record<string, { from: unknown; to: unknown }>
export type AuditRecord = {
  id: number
  action: string
  changes: AuditChanges | null
  note: string | null
  at: Date
  actor: { id: string; email: string; name: string } | null
}

/** Statuses that count as "failing" in a list filter. */
const FAILING_STATUSES = ['error', 'timed_out', 'interrupted'] as const

const recordColumns = { job: jobs, creatorEmail: user.email, creatorName: user.name }
const toRecord = (r: { job: JobRow; creatorEmail: string; creatorName: string }): JobRecord => ({
  ...r.job,
  creatorEmail: r.creatorEmail,
  creatorName: r.creatorName,
})

/** Escapes `%`, `_` and `\` so user text matches literally inside ILIKE. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** The SQL condition for a parsed list query (scope, text, status); visibility is added by the caller. */
export function listFilter(query: JobListQuery, userId: string): SQL | undefined {
  const conditions: (SQL | undefined)[] = [scopeFilter(query.scope, userId)]
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`
    conditions.push(or(ilike(jobs.name, pattern), ilike(jobs.instructions, pattern)))
  }
  if (query.status === 'enabled') conditions.push(and(eq(jobs.enabled, true), isNull(jobs.suspendedReason)))
  if (query.status === 'paused') conditions.push(or(not(jobs.enabled), isNotNull(jobs.suspendedReason)))
  if (query.status === 'failing') conditions.push(inArray(jobs.lastStatus, [...FAILING_STATUSES]))
  if (query.status === 'denied') conditions.push(sql`${jobs.lastDeniedCommands} > 0`)
  if (query.status === 'running') {
    conditions.push(
      sql`exists (select 1 from ${jobRuns} where ${jobRuns.jobId} = ${jobs.id} and ${jobRuns.status} = 'running')`,
    )
  }
  return and(...conditions)
}

/** Jobs in `scope`; "personal" means mine (visibility already limits personal jobs to the caller's own). */
export function scopeFilter(scope: JobListQuery['scope'], userId: string): SQL | undefined {
  if (scope === 'shared') return eq(jobs.scope, 'shared')
  if (scope === 'personal') return and(eq(jobs.scope, 'personal'), eq(jobs.createdBy, userId))
  return undefined
}

/** Jobs matching `where`, by name, with their creators. */
export async function selectJobRecords(where: SQL | undefined, db: Db = getDb()): Promise<JobRecord[]> {
  const rows = await db
    .select(recordColumns)
    .from(jobs)
    .innerJoin(user, eq(user.id, jobs.createdBy))
    .where(where)
    .orderBy(asc(jobs.name), asc(jobs.scope), asc(jobs.id))
  return rows.map(toRecord)
}

/** One job matching `where`; with `lock`, its row stays locked until the transaction ends. */
export async function findJobRecord(
  where: SQL,
  options: { lock?: boolean } = {},
  db: Db = getDb(),
): Promise<JobRecord | undefined> {
  const query = db.select(recordColumns).from(jobs).innerJoin(user, eq(user.id, jobs.createdBy)).where(where)
  const rows = options.lock ? await query.for('update', { of: jobs }) : await query
  return rows[0] && toRecord(rows[0])
}

export async function insertJobRow(values: NewJobRow, db: Db = getDb()): Promise<void> {
  await db.insert(jobs).values(values)
}

export async function updateJobRow(id: string, values: Partial<NewJobRow>, db: Db = getDb()): Promise<void> {
  await db.update(jobs).set(values).where(eq(jobs.id, id))
}

/**
 * Deletes a job; its runs go by cascade, and so do their transcripts (the runs' agent threads and,
 * by cascade, their messages), which nothing else points to and no page could show any more.
 */
export async function deleteJobRow(id: string, db: Db = getDb()): Promise<void> {
  await db.execute(sql`with transcripts as (
      delete from agent_threads where id in (
        select thread_id from job_runs where job_id = ${id} and thread_id is not null)
    )
    delete from jobs where id = ${id}`)
}

/** Records a job's change, counted against its actor's audit allowance of the day (decision 0500). */
export async function insertAuditRow(row: typeof jobAudit.$inferInsert, db: Db = getDb()): Promise<void> {
  await db.insert(jobAudit).values(row)
  const bytes = Buffer.byteLength(JSON.stringify(row.changes ?? null)) + Buffer.byteLength(row.note ?? '')
  await addAuditVolume(db, [{ actorId: row.actorId, bytes }])
}

/**
 * A job's audit trail, newest first, with each actor's public details (null if unknown); with
 * `page`, at most `limit` entries older than entry `beforeId`.
 */
export async function selectAuditRecords(
  jobId: string,
  db: Db = getDb(),
  page: { limit?: number; beforeId?: number } = {},
): Promise<AuditRecord[]> {
  const rows = await db
    .select({
      id: jobAudit.id,
      action: jobAudit.action,
      changes: jobAudit.changes,
      note: jobAudit.note,
      at: jobAudit.at,
      actorId: user.id,
      actorEmail: user.email,
      actorName: user.name,
    })
    .from(jobAudit)
    .leftJoin(user, eq(user.id, jobAudit.actorId))
    .where(
      and(
        eq(jobAudit.jobId, jobId),
        // Compared with the stored row itself, so microseconds cannot split a page.
        page.beforeId === undefined
          ? undefined
          : sql`(${jobAudit.at}, ${jobAudit.id}) < (select a.at, a.id from job_audit a where a.id = ${page.beforeId})`,
      ),
    )
    .orderBy(desc(jobAudit.at), desc(jobAudit.id))
    .limit(page.limit ?? 100_000)
  return rows.map(({ actorId, actorEmail, actorName, ...entry }) => ({
    ...entry,
    actor: actorId && actorEmail ? { id: actorId, email: actorEmail, name: actorName ?? actorEmail } : null,
  }))
}

/** The database clock (the scheduler's clock too, so next runs are computed on one timeline). */
export async function readDatabaseNow(db: Db = getDb()): Promise<Date> {
  const [row] = await queryRows<{ now: Date | string }>(db, sql`select now() as now`)
  return new Date(row!.now)
}

/** True when `err` is Postgres' unique_violation (23505), however the driver wrapped it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code === '23505') return true
    e = e.cause as typeof e
  }
  return false
}

/** Jobs of an organisation that are enabled and not paused by the system, other than `exceptId`. */
/** The organisation's jobs, enabled or not. */
export async function countJobs(orgId: string, db: Db = getDb()): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.orgId, orgId))
  return rows[0]?.n ?? 0
}

export async function countEnabledJobs(
  orgId: string,
  exceptId: string | null,
  db: Db = getDb(),
): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      and(
        eq(jobs.orgId, orgId),
        eq(jobs.enabled, true),
        isNull(jobs.suspendedReason),
        exceptId ? ne(jobs.id, exceptId) : undefined,
      ),
    )
  return Number(rows[0]?.n ?? 0)
}
