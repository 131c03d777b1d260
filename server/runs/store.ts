/**
 * SQL for `job_runs`: insert slots, move runs between states, renew and find leases, list
 * history. Guards in the WHERE clauses (status, owner) make every transition happen at most
 * once, whichever instance gets there first.
 */
import { and, desc, eq, getTableColumns, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import type { PgInsertValue } from 'drizzle-orm/pg-core'
import { getDb, type Db } from '../db/client.ts'
import { jobRuns } from '../db/schema/app.ts'
import { plusMs, queryRows, toDate } from '../db/sql.ts'
import type { RunRow } from './schema.ts'
import { deletedRecords } from './deleted-spend.ts'

/** A row to insert; columns may be SQL (e.g. `now() + interval`). */
export type NewRunRow = PgInsertValue<typeof jobRuns>

/** Inserts run rows; a slot that already has a row (unique job, slot, attempt) is left alone. */
export async function insertRuns(rows: NewRunRow[], db: Db = getDb()): Promise<RunRow[]> {
  if (rows.length === 0) return []
  return db.insert(jobRuns).values(rows).onConflictDoNothing().returning()
}

/** A slot's first attempt, as the claim writes it (see {@link insertSlotRuns}). */
export type SlotRow = {
  id: string
  jobId: string
  orgId: string
  trigger: RunRow['trigger']
  scheduledFor: Date
  status: 'running' | 'queued' | 'skipped' | 'missed'
  reason: string | null
  runAsUserId: string
  /** The instance starting it (running rows). */
  instance?: string
  /** Its transcript's thread (running rows; the caller creates the thread in the same transaction). */
  threadId?: string
}

/**
 * Inserts the claim's slot rows in one statement (a JSON parameter: fast for hundreds of rows).
 * Running rows start now with a lease; skipped and missed rows are final now. A slot that already
 * has a row keeps it (unique job, slot, attempt). Returns the rows inserted as running.
 */
export async function insertSlotRuns(
  rows: SlotRow[],
  options: { now: SQL; leaseMs: number },
  db: Db = getDb(),
): Promise<RunRow[]> {
  if (rows.length === 0) return []
  const { now } = options
  const json = JSON.stringify(rows)
  // Only the runs starting here come back: a burst batch inserts thousands of queued, skipped and
  // missed rows that nobody reads, and parsing them back cost as much as writing them.
  const inserted = await queryRows(
    db,
    sql`with inserted as (insert into job_runs (id, job_id, org_id, trigger, scheduled_for, attempt, status, reason, run_as_user_id,
          instance, thread_id, started_at, lease_expires_at, finished_at)
        select x."id", x."jobId", x."orgId", x."trigger", x."scheduledFor", 1, x."status", x."reason",
          x."runAsUserId", x."instance", x."threadId",
          case when x."status" = 'running' then ${now} end,
          case when x."status" = 'running' then ${plusMs(now, options.leaseMs)} end,
          case when x."status" in ('skipped', 'missed') then ${now} end
        from jsonb_to_recordset(${json}::jsonb) as x("id" text, "jobId" text, "orgId" text, "trigger" text,
          "scheduledFor" timestamptz, "status" text, "reason" text, "runAsUserId" text, "instance" text,
          "threadId" text)
        on conflict do nothing
        returning *)
        select * from inserted where status = 'running'`,
  )
  return inserted.map(fromRawRun)
}

export async function findRun(id: string, db: Db = getDb()): Promise<RunRow | undefined> {
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.id, id))
  return row
}

/** A job's runs, newest slot first; `before` is a run (exclusive cursor) or an instant. */
export async function listJobRuns(
  jobId: string,
  options: { limit: number; before?: { scheduledFor: Date; attempt: number } | Date },
  db: Db = getDb(),
): Promise<RunRow[]> {
  const { before } = options
  const cursor: SQL | undefined =
    before instanceof Date
      ? lt(jobRuns.scheduledFor, before)
      : before
        ? sql`(${jobRuns.scheduledFor}, ${jobRuns.attempt}) < (${before.scheduledFor.toISOString()}::timestamptz, ${before.attempt})`
        : undefined
  return db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.jobId, jobId), cursor))
    .orderBy(desc(jobRuns.scheduledFor), desc(jobRuns.attempt))
    .limit(options.limit)
}

/**
 * Marks queued runs as running on `instance` with a fresh lease, each as the person given: the
 * caller read that person and the job's instructions together, under the job's row lock, so a
 * run never executes one person's prompt as another (invariant 4). Only still-queued rows move.
 */
export async function markRunsRunning(
  starts: { id: string; runAsUserId: string }[],
  options: { instance: string; now: SQL; leaseMs: number },
  db: Db = getDb(),
): Promise<RunRow[]> {
  if (starts.length === 0) return []
  const rows = await queryRows(
    db,
    sql`update job_runs r set status = 'running', instance = ${options.instance},
          started_at = ${options.now}, lease_expires_at = ${plusMs(options.now, options.leaseMs)},
          run_as_user_id = x.run_as
        from jsonb_to_recordset(${JSON.stringify(starts.map((s) => ({ id: s.id, run_as: s.runAsUserId })))}::jsonb)
          as x(id text, run_as text)
        where r.id = x.id and r.status = 'queued'
        returning r.*`,
  )
  return rows.map(fromRawRun)
}

/** Marks queued runs as skipped (their job was paused before they could start). */
export async function markRunsSkipped(
  ids: string[],
  options: { now: SQL; reason: string },
  db: Db = getDb(),
) {
  if (ids.length === 0) return []
  return db
    .update(jobRuns)
    .set({ status: 'skipped', reason: options.reason, finishedAt: options.now })
    .where(and(inArray(jobRuns.id, ids), eq(jobRuns.status, 'queued')))
    .returning({ id: jobRuns.id })
}

/** Running runs whose lease lapsed before `now`: their instance died or lost the database. */
export async function findExpiredLeases(now: SQL, limit: number, db: Db = getDb()): Promise<RunRow[]> {
  return db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.status, 'running'), lt(jobRuns.leaseExpiresAt, now)))
    .orderBy(jobRuns.leaseExpiresAt)
    .limit(limit)
}

/** Runs in flight for some jobs (queued or running), to apply the overlap policy. */
export async function listActiveRuns(jobIds: string[], db: Db = getDb()) {
  if (jobIds.length === 0) return []
  return db
    .select({ id: jobRuns.id, jobId: jobRuns.jobId, status: jobRuns.status })
    .from(jobRuns)
    .where(
      and(inArray(jobRuns.jobId, jobIds), or(eq(jobRuns.status, 'queued'), eq(jobRuns.status, 'running'))),
    )
}

const runColumns = Object.entries(getTableColumns(jobRuns))

/** Maps a raw `job_runs` row (snake_case, timestamps as text) from a hand-written statement. */
export function fromRawRun(raw: Record<string, unknown>): RunRow {
  const row: Record<string, unknown> = {}
  for (const [key, column] of runColumns) {
    const value = raw[column.name]
    row[key] = column.columnType === 'PgTimestamp' ? toDate(value) : (value ?? null)
  }
  return row as RunRow
}

/** Records whose model key a run spends, once its executor has resolved it. */
export async function recordRunKeySource(
  runId: string,
  keySource: NonNullable<RunRow['keySource']>,
  db: Db = getDb(),
): Promise<void> {
  await db.update(jobRuns).set({ keySource }).where(eq(jobRuns.id, runId))
}

/** A run's tokens, model and cost so far, as its record shows them while it runs. */
export type RunUsageSoFar = {
  inputTokens: number
  outputTokens: number
  costUsd: number | null
  model: string
}

/**
 * A run's tokens, model and cost so far, written as it spends so its page shows them while it runs
 * (after each step of its agent) and a run cancelled or lost keeps them; its settle writes the final
 * ones. A run stopped from outside (cancelled, timed out, its lease lost) is settled without waiting
 * for its executor, whose last count, the model call it was making included (decision 0533), lands
 * here afterwards, whatever the run's status by then. Each figure only grows (a budget's check
 * writes a step's count too, budget.ts `admitCall`), so a write that lands late never takes back a
 * later one or what the settle wrote; an unknown cost leaves what they wrote.
 */
export async function recordRunUsageSoFar(
  runId: string,
  usage: RunUsageSoFar,
  db: Db = getDb(),
): Promise<void> {
  await db.execute(
    sql`update job_runs set ${raisedRunTokens(usage)}, cost_usd = ${raisedRunCost(usage.costUsd)}
        where id = ${runId}`,
  )
}

/** The assignments raising a run's tokens to `usage`'s and naming its model when none is named. */
export const raisedRunTokens = (usage: RunUsageSoFar): SQL =>
  sql`input_tokens = greatest(coalesce(input_tokens, 0), ${usage.inputTokens}),
      output_tokens = greatest(coalesce(output_tokens, 0), ${usage.outputTokens}),
      model = coalesce(model, ${usage.model})`

/** A run's cost raised to `costUsd`; an unknown one leaves it as it is. */
export const raisedRunCost = (costUsd: number | null): SQL =>
  costUsd === null ? sql`cost_usd` : sql`greatest(coalesce(cost_usd, 0), ${costUsd})`

/**
 * Runs of an organisation that spent the deployment's key in the last 24 hours (database clock),
 * those of deleted jobs included (decision 0520).
 */
export async function countDeploymentKeyRuns(orgId: string, exceptRunId: string | null, db: Db = getDb()) {
  const since = sql`now() - interval '24 hours'`
  const rows = await db
    .select({
      n: sql<number>`count(*)::int + ${deletedRecords({ keySource: 'deployment', orgId, kind: 'run', since })}`,
    })
    .from(jobRuns)
    .where(
      and(
        eq(jobRuns.orgId, orgId),
        eq(jobRuns.keySource, 'deployment'),
        sql`${jobRuns.startedAt} > ${since}`,
        exceptRunId ? ne(jobRuns.id, exceptRunId) : undefined,
      ),
    )
  return Number(rows[0]?.n ?? 0)
}

/**
 * For the jobs list, in one statement: the newest `perJob` final or running runs of each job,
 * newest first (a lateral join walking the (job, scheduled_for, attempt) unique index per job: the
 * status dots without a query per row), and which jobs have a run under way: running, or queued
 * and due to start (a retry still waiting out its backoff is not; the partial index on active
 * runs).
 */
export async function listRunsAtAGlance(
  jobIds: string[],
  perJob: number,
  db: Db = getDb(),
): Promise<{
  recent: { jobId: string; id: string; status: RunRow['status']; scheduledFor: Date }[]
  activeJobIds: string[]
}> {
  if (jobIds.length === 0) return { recent: [], activeJobIds: [] }
  const rows = await queryRows<{
    job_id: string
    active: boolean
    id: string | null
    status: RunRow['status']
    scheduled_for: unknown
  }>(
    db,
    sql`select j.id as job_id, r.id, r.status, r.scheduled_for,
          exists (select 1 from job_runs a where a.job_id = j.id and (a.status = 'running'
            or (a.status = 'queued' and coalesce(a.not_before, now()) <= now()))) as active
        from unnest(array[${sql.join(
          jobIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::text[]) as j(id)
        left join lateral (
          select id, status, scheduled_for from job_runs
          where job_id = j.id and status <> 'queued'
          order by scheduled_for desc, attempt desc limit ${perJob}
        ) r on true`,
  )
  const activeJobIds = new Set<string>()
  const recent = []
  for (const r of rows) {
    if (r.active) activeJobIds.add(r.job_id)
    if (r.id !== null) {
      recent.push({ jobId: r.job_id, id: r.id, status: r.status, scheduledFor: toDate(r.scheduled_for)! })
    }
  }
  return { recent, activeJobIds: [...activeJobIds] }
}
