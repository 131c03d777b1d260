/**
 * Cancelling and retrying a run from the UI or the API. Both need the run-now right on its job
 * (the truth table's "edit"): 404 when the job is not visible, 403 when it is seen but not editable.
 *
 * Cancelling settles the run as `cancelled` in the database at once, under the same status guard
 * every transition uses. The instance executing it then finds at its next lease renewal that it no
 * longer holds the run and aborts the agent (server/scheduler/core.ts `renewHeldLeases`); the
 * jobs-changed notification sent here makes that renewal happen within moments.
 */
import { sql } from 'drizzle-orm'
import type { Caller } from '../access/caller.ts'
import { getDb } from '../db/client.ts'
import { notifyJobsChanged } from '../db/signal.ts'
import { inTransaction, queryRows } from '../db/sql.ts'
import { assertCanEditJob } from '../jobs/service.ts'
import { conflict, isNotFound, notFound } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { FAILED_STATUSES, toRun, type Run, type RunRow } from './schema.ts'
import { runJobNow } from './service.ts'
import { findRun, fromRawRun } from './store.ts'
import { deniedCommandsSql } from './settle.ts'
import { logRunEnd } from './log-run-end.ts'

/** Runs a person may retry: the failed ones and those someone cancelled. */
export const RETRYABLE_STATUSES: readonly RunRow['status'][] = [...FAILED_STATUSES, 'cancelled']

/** The run, if the caller may run its job now; 404 for a run whose job they cannot see. */
async function editableRun(caller: Caller, runId: string): Promise<RunRow> {
  const run = await findRun(runId)
  if (!run) throw notFound(`No run with id ${runId}`)
  try {
    await assertCanEditJob(caller, run.jobId)
  } catch (err) {
    if (isNotFound(err)) throw notFound(`No run with id ${runId}`)
    throw err
  }
  return run
}

/**
 * Settles run `runId` as cancelled if it is queued or running, with `reason` (its error says the
 * same, capitalised); null when it had already ended. The job's failure count is left alone.
 */
async function settleCancelled(runId: string, reason: string): Promise<RunRow | null> {
  const error = reason.charAt(0).toUpperCase() + reason.slice(1)
  const settled = await inTransaction(getDb(), async (tx) => {
    const [raw] = await queryRows(
      tx,
      sql`update job_runs set status = 'cancelled', finished_at = now(), lease_expires_at = null,
            error = ${error}, denied_commands = ${deniedCommandsSql(runId)},
            reason = case when reason is null then ${reason} else reason || '; ' || ${reason} end
          where id = ${runId} and status in ('queued', 'running')
          returning *`,
    )
    if (!raw) return null
    const row = fromRawRun(raw)
    if (row.startedAt) {
      await queryRows(
        tx,
        sql`update jobs set last_run_at = ${row.startedAt.toISOString()}::timestamptz,
              last_status = 'cancelled', last_error = ${row.error}, state_updated_at = now(),
              last_denied_commands = ${row.deniedCommands}
            where id = ${row.jobId}`,
      )
    }
    return row
  })
  if (settled) await logRunEnd(settled, undefined, getDb())
  return settled
}

/**
 * Tells the schedulers that runs were cancelled: the instance executing one finds at its next
 * lease renewal, which this makes happen within moments, that it no longer holds it.
 */
const tellSchedulers = () =>
  notifyJobsChanged().catch((err) =>
    logger.warn({ err }, 'could not tell the schedulers about a cancelled run'),
  )

/** Cancels a queued or running run (409 otherwise). The job's failure count is left alone. */
export async function cancelRun(caller: Caller, runId: string): Promise<Run> {
  const run = await editableRun(caller, runId)
  const settled = await settleCancelled(runId, `cancelled by ${caller.name}`)
  if (!settled) throw conflict(`Run ${runId} is ${run.status}, not queued or running: nothing to cancel`)
  await tellSchedulers()
  return toRun(settled)
}

/**
 * Cancels the runs acting as `userId` in `orgId` that are going (`running`), or also waiting
 * (`queued`), as a cancel from the UI would: the instance executing each aborts it and kills the
 * commands it started (decision 0476). Returns how many it cancelled.
 */
export async function cancelRunsOf(
  orgId: string,
  userId: string,
  which: 'running' | 'queued or running',
  reason: string,
): Promise<number> {
  const going = await queryRows<{ id: string }>(
    getDb(),
    sql`select r.id from job_runs r join jobs j on j.id = r.job_id
        where r.org_id = ${orgId} and coalesce(r.run_as_user_id, j.created_by) = ${userId}
          and (r.status = 'running' or (${which !== 'running'} and r.status = 'queued'))`,
  )
  let cancelled = 0
  for (const { id } of going) if (await settleCancelled(id, reason)) cancelled++
  if (cancelled > 0) await tellSchedulers()
  return cancelled
}

/**
 * Starts a new run of a failed or cancelled run's job now, as run now would (409 otherwise).
 * `beforeStart` is Run now's own check of the job (its key and quotas), asked once the run is
 * known to be retryable, so a Retry is refused where Run now would be.
 */
export async function retryRun(
  caller: Caller,
  runId: string,
  beforeStart: (jobId: string) => Promise<void> = async () => {},
): Promise<Run> {
  const run = await editableRun(caller, runId)
  if (!RETRYABLE_STATUSES.includes(run.status))
    throw conflict(`Run ${runId} is ${run.status}; only failed or cancelled runs can be retried`)
  await beforeStart(run.jobId)
  return runJobNow(caller, run.jobId, { retryOf: run })
}
