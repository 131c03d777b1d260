/**
 * Runs as callers see them: run now, a job's history and one run with its transcript. Access
 * is the jobs service's: whoever may see a job sees its runs; whoever may edit it may run it now.
 */
import { desc, eq, sql } from 'drizzle-orm'
import { viaNote } from '../access/caller.ts'
import type { Caller } from '../auth/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { jobRuns, jobs } from '../db/schema/app.ts'
import { badRequest, isNotFound, notFound } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { assertCanEditJob, getJob } from '../jobs/service.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { decideOverlap } from './overlap.ts'
import { notifyJobsChanged } from '../db/signal.ts'
import { inTransaction } from '../db/sql.ts'
import { RunListQuery, toRun, type Run, type RunRow, type TranscriptMessage } from './schema.ts'
import { findRun, insertRuns, listActiveRuns, listJobRuns } from './store.ts'
import { readTranscript } from './threads.ts'
import { addAuditVolume, assertAuditAllowance } from '../accounts/audit-allowance.ts'

/**
 * Queues a manual run of a job the caller may edit (403/404 otherwise). It obeys the job's overlap
 * policy (with `overlap: skip` and a run in progress, the request is recorded as skipped) and
 * leaves the schedule alone. The run executes as the job's creator, never as the caller.
 */
export async function runJobNow(
  caller: Caller,
  jobId: string,
  options: { retryOf?: RunRow } = {},
): Promise<Run> {
  await assertCanEditJob(caller, jobId)
  // A run the person starts is an action of theirs like a command (decision 0503): it stores a copy
  // of the instructions (up to 60,000 characters), and a run whose call fails costs nothing.
  await assertAuditAllowance(caller.userId)
  const { retryOf } = options
  const run = await inTransaction(getDb(), async (tx) => {
    // The job row lock orders this against claims and starts of the same job.
    const [job] = await tx.select().from(jobs).where(eq(jobs.id, jobId)).for('update')
    if (!job) throw notFound(`No job with id ${jobId}`)
    const decision = decideOverlap(job.overlap, await listActiveRuns([jobId], tx))
    const requested = retryOf
      ? `retry of ${retryOf.id} (${retryOf.status}) by ${caller.name}`
      : `run now by ${caller.name}${caller.via ? ` ${viaNote(caller)}` : ''}`
    if (decision.status === 'skipped') {
      const repeated = await recordRepeatedRefusal(jobId, `${requested}; ${decision.reason}`, tx)
      if (repeated) return repeated
    }
    const [row] = await insertRuns(
      [
        {
          id: newId('run'),
          jobId,
          orgId: job.orgId,
          trigger: retryOf ? 'retry' : 'manual',
          scheduledFor: sql`now()`,
          runAsUserId: job.createdBy,
          ...(decision.status === 'skipped'
            ? { status: 'skipped', reason: `${requested}; ${decision.reason}`, finishedAt: sql`now()` }
            : {
                status: 'queued',
                reason: decision.status === 'queued' ? `${requested}; ${decision.reason}` : requested,
              }),
        },
      ],
      tx,
    )
    if (row!.status === 'queued')
      await addAuditVolume(tx, [{ actorId: caller.userId, bytes: Buffer.byteLength(job.instructions) }])
    return row!
  })
  if (run.status === 'queued') {
    await notifyJobsChanged().catch((err) =>
      logger.warn({ err }, 'could not wake the schedulers for a run now'),
    )
  }
  return toRun(run)
}

/**
 * Refused requests (overlap) while the same runs are going are the same news: one record says so,
 * brought up to date (who asked last, when) instead of a row per press. Pressing Run now in a loop
 * would otherwise add a row per press to a history kept for RUN_HISTORY_DAYS; now it adds at most
 * one while the job's runs go. The record is a person's refused request (Run now, Retry; never a
 * slot or an automatic retry the scheduler skipped) made since the oldest run going was scheduled.
 * Not "the job's latest row": requests take turns on the job's lock but carry the time their
 * transaction began, so a refused one can sort before the queued run a press ahead of it made.
 */
async function recordRepeatedRefusal(jobId: string, reason: string, tx: Db): Promise<RunRow | null> {
  const going = sql`(select min(g.scheduled_for) from ${jobRuns} g
    where g.job_id = ${jobId} and g.status in ('running', 'queued'))`
  const [earlier] = await tx
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .where(
      sql`${jobRuns.jobId} = ${jobId} and ${jobRuns.status} = 'skipped'
        and (${jobRuns.trigger} = 'manual' or ${jobRuns.reason} like 'retry of %')
        and ${jobRuns.scheduledFor} >= ${going}`,
    )
    .orderBy(desc(jobRuns.scheduledFor))
    .limit(1)
  if (!earlier) return null
  const [row] = await tx
    .update(jobRuns)
    .set({ reason, finishedAt: sql`now()` })
    .where(eq(jobRuns.id, earlier.id))
    .returning()
  return row ?? null
}

/** A job's runs, newest first (`limit`, `before`: see {@link RunListQuery}); 404 if the job is not visible. */
export async function listRunsOfJob(caller: Caller, jobId: string, query: unknown = {}): Promise<Run[]> {
  await getJob(caller, jobId)
  const { limit, before } = parseInput(RunListQuery, query ?? {})
  let cursor: { scheduledFor: Date; attempt: number } | Date | undefined
  if (typeof before === 'string') {
    const run = await findRun(before)
    if (!run || run.jobId !== jobId)
      throw badRequest(`before: no run ${before} in this job's history`, 'before')
    cursor = run
  } else cursor = before
  return (await listJobRuns(jobId, { limit, before: cursor })).map(toRun)
}

/**
 * Run `runId`, when the caller may see its job: whoever sees a job sees its runs and what they did
 * (transcript, deliveries, changed files).
 *
 * @throws HttpError 404 for a run that does not exist or whose job the caller may not see, alike.
 */
export async function findVisibleRun(caller: Caller, runId: string, db: Db = getDb()): Promise<RunRow> {
  const run = await findRun(runId, db)
  if (!run) throw notFound(`No run with id ${runId}`)
  try {
    await getJob(caller, run.jobId)
  } catch (err) {
    // Only "job not visible" means "run not visible"; anything else (the database) surfaces.
    if (isNotFound(err)) throw notFound(`No run with id ${runId}`)
    throw err
  }
  return run
}

/** One run with its transcript; 404 unless the caller may see its job. */
export async function getRunWithTranscript(
  caller: Caller,
  runId: string,
): Promise<{ run: Run; transcript: TranscriptMessage[] }> {
  const run = await findVisibleRun(caller, runId)
  return { run: toRun(run), transcript: run.threadId ? await readTranscript(run.threadId) : [] }
}
