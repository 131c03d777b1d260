/**
 * Settling a run: its final status, the job's run state (lastRun, lastStatus, lastError,
 * consecutive failures, auto-pause) and, for a failure the job's retries allow, the next
 * attempt. All in one statement or one transaction, so history and the job file agree.
 */
import { sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { newId } from '../lib/ids.ts'
import { formatDuration } from './format.ts'
import { logRunEnd } from './log-run-end.ts'
import { runEndedWords } from './words.ts'
import { AUTO_PAUSE_AFTER, autoPauseReason, canRetry, RETRY_BACKOFF_MS, retryDelayMs } from './policy.ts'
import { toPostgresText } from '../db/text.ts'
import { inTransaction, plusMs, queryRows } from '../db/sql.ts'
import type { RunUsage } from './executor.ts'
import type { FailedStatus, RunRow } from './schema.ts'
import { fromRawRun, insertRuns } from './store.ts'

export type RunOutcome =
  | { status: 'success'; usage?: RunUsage }
  | { status: FailedStatus; error: string; reason: string; usage?: RunUsage }
  | { status: 'skipped'; reason: string; usage?: undefined }

/** Who may settle: the instance holding the run, or anyone once its lease lapsed (the reaper). */
export type SettleGuard = { instance: string } | { leaseExpiredBefore: SQL }

export type SettleOptions = {
  guard: SettleGuard
  now: SQL
  backoffMs?: readonly number[]
  /** The job's name for the run-end log line, when the caller has it (else it is looked up). */
  jobName?: string
}

/**
 * Settles a running run and logs its end (one line: job, status, duration, cost). Null when it was
 * no longer ours to settle (already settled or reaped).
 */
export async function settleRun(
  runId: string,
  outcome: RunOutcome,
  options: SettleOptions,
  db: Db = getDb(),
): Promise<RunRow | null> {
  const settled = await settleOutcome(runId, outcome, options, db)
  if (settled) await logRunEnd(settled, options.jobName, db)
  return settled
}

function settleOutcome(runId: string, outcome: RunOutcome, options: SettleOptions, db: Db) {
  if (outcome.status === 'success') return settleSuccess(runId, outcome.usage, options, db)
  if (outcome.status === 'skipped') return settleSkipped(runId, outcome.reason, options, db)
  // Error texts can quote model output; a NUL in one must not keep the run from settling.
  const failure = { ...outcome, error: toPostgresText(outcome.error), reason: toPostgresText(outcome.reason) }
  return inTransaction(db, (tx) => settleFailure(runId, failure, options, tx))
}

function guardSql(guard: SettleGuard): SQL {
  return 'instance' in guard
    ? sql`instance = ${guard.instance}`
    : sql`lease_expires_at < ${guard.leaseExpiredBefore}`
}

/**
 * The commands a run's agent was refused, from the environment audit (every command lands there,
 * on whichever instance or path it ran): denied by the policy, or network refused by the sandbox.
 */
export const deniedCommandsSql = (runId: string) =>
  sql`(select count(*)::int from environment_audit
        where run_id = ${runId} and kind = 'command' and decision in ('denied', 'network_blocked'))`

/**
 * The run's usage as its executor reported it. A run that ended without a report (its instance gone,
 * or stopped before it could say) keeps the spending its budget checks recorded while it went
 * (runBudgetRefusal): that money was spent.
 */
const usageSql = (usage: RunUsage | undefined) =>
  usage
    ? sql`input_tokens = ${usage.inputTokens}, output_tokens = ${usage.outputTokens},
          cost_usd = ${usage.costUsd ?? null}, model = ${usage.model ?? null}`
    : sql`cost_usd = cost_usd`

/** The common case in one statement: the run and its job's state change together. */
async function settleSuccess(runId: string, usage: RunUsage | undefined, options: SettleOptions, db: Db) {
  const { now } = options
  const [raw] = await queryRows(
    db,
    sql`with r as (
          update job_runs set status = 'success', finished_at = ${now}, error = null,
            lease_expires_at = null, ${usageSql(usage)}, denied_commands = ${deniedCommandsSql(runId)}
          where id = ${runId} and status = 'running' and ${guardSql(options.guard)}
          returning *
        ), j as (
          update jobs set last_run_at = r.started_at, last_status = 'success', last_error = null,
            last_denied_commands = r.denied_commands, consecutive_failures = 0, state_updated_at = ${now}
          from r where jobs.id = r.job_id
          returning jobs.id
        )
        select r.* from r`,
  )
  return raw ? fromRawRun(raw) : null
}

/** A run its executor would not start: final `skipped` with the reason; the failure count stays. */
async function settleSkipped(runId: string, reason: string, options: SettleOptions, db: Db) {
  const { now } = options
  const [raw] = await queryRows(
    db,
    sql`with r as (
          update job_runs set status = 'skipped', finished_at = ${now}, reason = ${toPostgresText(reason)},
            lease_expires_at = null
          where id = ${runId} and status = 'running' and ${guardSql(options.guard)}
          returning *
        ), j as (
          update jobs set last_status = 'skipped', last_error = null, last_denied_commands = 0,
            state_updated_at = ${now}
          from r where jobs.id = r.job_id
          returning jobs.id
        )
        select r.* from r`,
  )
  return raw ? fromRawRun(raw) : null
}

async function settleFailure(
  runId: string,
  outcome: Extract<RunOutcome, { status: FailedStatus }>,
  options: SettleOptions,
  tx: Db,
): Promise<RunRow | null> {
  const { now } = options
  const [raw] = await queryRows(
    tx,
    sql`update job_runs set status = ${outcome.status}, finished_at = ${now}, error = ${outcome.error},
          lease_expires_at = null, ${usageSql(outcome.usage)}, denied_commands = ${deniedCommandsSql(runId)}
        where id = ${runId} and status = 'running' and ${guardSql(options.guard)}
        returning *`,
  )
  if (!raw) return null
  const run = fromRawRun(raw)
  // Only a failure with no retry left counts towards the auto-pause; reaching the limit pauses
  // the job and restarts the count, so re-enabling it gives it a fresh AUTO_PAUSE_AFTER tries.
  const pauseReason = autoPauseReason(`${outcome.status}: ${outcome.error}`)
  const [job] = await queryRows<{ retries: number; suspended_reason: string | null }>(
    tx,
    sql`update jobs set last_run_at = ${run.startedAt?.toISOString() ?? null}::timestamptz,
          last_status = ${outcome.status}, last_error = ${outcome.error}, state_updated_at = ${now},
          last_denied_commands = ${run.deniedCommands},
          consecutive_failures = case
            when ${run.attempt} <= retries then consecutive_failures
            when consecutive_failures + 1 >= ${AUTO_PAUSE_AFTER} then 0
            else consecutive_failures + 1 end,
          suspended_reason = case
            when ${run.attempt} > retries and consecutive_failures + 1 >= ${AUTO_PAUSE_AFTER}
              then coalesce(suspended_reason, ${pauseReason})
            else suspended_reason end
        where id = ${run.jobId}
        returning retries, suspended_reason`,
  )
  let reason = outcome.reason
  if (job && canRetry(run.attempt, job.retries)) {
    const delay = retryDelayMs(run.attempt, options.backoffMs ?? RETRY_BACKOFF_MS)
    reason += `; retrying in ${formatDuration(delay)} (attempt ${run.attempt + 1} of ${job.retries + 1})`
    await insertRuns(
      [
        {
          id: newId('run'),
          jobId: run.jobId,
          orgId: run.orgId,
          trigger: 'retry',
          scheduledFor: run.scheduledFor,
          attempt: run.attempt + 1,
          status: 'queued',
          reason: `retry of attempt ${run.attempt}, which ${runEndedWords(outcome.status)}`,
          notBefore: plusMs(now, delay),
          runAsUserId: run.runAsUserId,
        },
      ],
      tx,
    )
  } else if (job?.suspended_reason === pauseReason) {
    reason += `; the job paused itself after ${AUTO_PAUSE_AFTER} failed runs in a row`
  }
  const [final] = await queryRows(
    tx,
    sql`update job_runs set reason = ${reason} where id = ${runId} returning *`,
  )
  return final ? fromRawRun(final) : run
}
