/**
 * The jobs list as the API and the jobs page read it: one page at a time (`limit`, `cursor`),
 * sorted in Postgres, from one flat query that selects only what a row shows, with the
 * instructions cut to a preview (the job itself has them whole). A page of 50 costs the same
 * with 100 jobs or 100,000.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import { z } from 'zod'
import { jobsVisibleTo } from '../access/visibility.ts'
import type { Caller } from '../auth/caller.ts'
import { getDb } from '../db/client.ts'
import { jobs, user } from '../db/schema/index.ts'
import { decodeCursor, encodeCursor, PageCursor, PageLimit } from '../lib/paging.ts'
import { parseInput } from '../lib/validate.ts'
import { JobListQuery } from './schema.ts'
import { listFilter, scopeFilter, type JobRecord } from './store.ts'
import { toJobView, type JobView } from './views.ts'

/** Characters of instructions a list row carries; the job itself has them whole. */
export const INSTRUCTIONS_PREVIEW_CHARS = 200

const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v)

/** `GET /jobs` query: the filters of {@link JobListQuery}, a sort, and a page. */
export const JobPageQuery = JobListQuery.extend({
  sort: z
    .preprocess(
      emptyAsAbsent,
      z.enum(['name', 'next', 'last'], { error: 'must be name, next or last' }).optional(),
    )
    .default('name')
    .describe('Order by name (default), next run or last run; jobs without that time come last'),
  dir: z
    .preprocess(emptyAsAbsent, z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional())
    .default('asc')
    .describe('Ascending (default) or descending'),
  limit: PageLimit,
  cursor: PageCursor,
})
export type JobPageQuery = z.infer<typeof JobPageQuery>

export type JobPage = { jobs: JobView[]; total: number; nextCursor: string | null }

// Every job column the view reads (the field registry decides which: a new field needs no change
// here), with the instructions cut to a preview in Postgres so the rest never leaves the database.
const columns = {
  ...getTableColumns(jobs),
  instructions: sql<string>`left(${jobs.instructions}, ${INSTRUCTIONS_PREVIEW_CHARS + 1})`,
  creatorEmail: user.email,
  creatorName: user.name,
}

/** One page of the jobs the caller may see. 400 naming the field for a bad limit, cursor or filter. */
export async function listJobPage(caller: Caller, query: unknown = {}): Promise<JobPage> {
  const q = parseInput(JobPageQuery, query ?? {})
  const where = and(jobsVisibleTo(caller), listFilter(q, caller.userId))
  const time = q.sort === 'next' ? jobs.nextRunAt : q.sort === 'last' ? jobs.lastRunAt : null
  const after = q.cursor ? afterCursor(q.cursor, time, q.dir) : undefined
  const direction = q.dir === 'asc' ? asc : desc
  const order = time
    ? [sql`${time} is null`, direction(millis(time)), asc(jobs.name), asc(jobs.id)]
    : [direction(jobs.name), direction(jobs.id)]
  const db = getDb()
  const select = (extra: SQL | undefined) =>
    db
      .select({ ...columns, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(jobs)
      .innerJoin(user, eq(user.id, jobs.createdBy))
      .where(and(where, extra))
      .orderBy(...order)
      .limit(q.limit + 1)
  // The first page counts the matches in the same query (a window over every match, before the
  // limit); a later page's rows are fewer than the matches, so it counts them apart.
  const [rows, counted] = after
    ? await Promise.all([select(after), db.select({ total: count() }).from(jobs).where(where)])
    : [await select(undefined), null]
  const page = rows.slice(0, q.limit)
  const last = page.at(-1)
  const more = rows.length > q.limit && last
  const total = counted ? (counted[0]?.total ?? 0) : (rows[0]?.total ?? 0)
  return {
    jobs: page.map(({ total: _total, ...row }) => toJobView(withPreview(row), caller)),
    total,
    nextCursor: more ? cursorFor(last, time) : null,
  }
}

/** A job as the views that read every visible job at once have it: instructions cut to a preview. */
export type JobBrief = JobView & {
  /** The whole instructions' size in UTF-8 bytes (what a job file's size needs). */
  instructionsBytes: number
}

/**
 * Every job the caller may see that matches `query`'s filters ({@link JobListQuery}), unpaged, by
 * name: for the views that read them all at once (the calendar, its feed, the workspace tree).
 * The instructions stay in Postgres but for a preview and their size: those views never show them,
 * and at the organisation's job limit whole ones could be 60 MB a request (decision 0452).
 */
export async function listJobBriefs(caller: Caller, query: unknown = {}): Promise<JobBrief[]> {
  const filters = parseInput(JobListQuery, query ?? {})
  const rows = await getDb()
    .select({
      ...columns,
      instructionsBytes: sql<number>`octet_length(${jobs.instructions})`.mapWith(Number),
    })
    .from(jobs)
    .innerJoin(user, eq(user.id, jobs.createdBy))
    .where(and(jobsVisibleTo(caller), listFilter(filters, caller.userId)))
    .orderBy(asc(jobs.name), asc(jobs.scope), asc(jobs.id))
  return rows.map(({ instructionsBytes, ...row }) => ({
    ...toJobView(withPreview(row), caller),
    instructionsBytes,
  }))
}

/**
 * Which of `names` the caller's own personal jobs have: a page lists a shared job of such a name
 * apart from theirs, wherever the page breaks between the two.
 */
export async function personalJobNamesAmong(caller: Caller, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set()
  const rows = await getDb()
    .selectDistinct({ name: jobs.name })
    .from(jobs)
    .where(and(jobsVisibleTo(caller), scopeFilter('personal', caller.userId), inArray(jobs.name, [...names])))
  return new Set(rows.map((row) => row.name))
}

function withPreview(row: JobRecord): JobRecord {
  const long = row.instructions.length > INSTRUCTIONS_PREVIEW_CHARS
  const instructions = long ? `${row.instructions.slice(0, INSTRUCTIONS_PREVIEW_CHARS)}…` : row.instructions
  return { ...row, instructions }
}

type TimeColumn = typeof jobs.nextRunAt | typeof jobs.lastRunAt | null

function cursorFor(row: JobRecord, time: TimeColumn): string {
  if (!time) return encodeCursor([row.name, row.id])
  const value = time === jobs.nextRunAt ? row.nextRunAt : row.lastRunAt
  return encodeCursor([value ? value.toISOString() : null, row.name, row.id])
}

/** Rows after the cursor's row in the page order (keyset; times that are null sort last). */
function afterCursor(cursor: string, time: TimeColumn, dir: 'asc' | 'desc'): SQL | undefined {
  if (!time) {
    const [name, id] = decodeCursor(cursor, ['string', 'string']) as [string, string]
    const beyond = dir === 'asc' ? gt : lt
    return or(beyond(jobs.name, name), and(eq(jobs.name, name), beyond(jobs.id, id)))
  }
  const [at, name, id] = decodeCursor(cursor, ['time?', 'string', 'string']) as [Date | null, string, string]
  const tieBreak = or(gt(jobs.name, name), and(eq(jobs.name, name), gt(jobs.id, id)))
  if (at === null) return and(isNull(time), tieBreak)
  const value = sql`${at.toISOString()}::timestamptz`
  const beyond = dir === 'asc' ? sql`${millis(time)} > ${value}` : sql`${millis(time)} < ${value}`
  return or(isNull(time), beyond, and(sql`${millis(time)} = ${value}`, tieBreak))
}

/** Postgres keeps microseconds, a cursor milliseconds: compare and order at the cursor's precision. */
const millis = (time: NonNullable<TimeColumn>) => sql`date_trunc('milliseconds', ${time})`
