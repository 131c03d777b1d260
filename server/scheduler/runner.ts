/**
 * Executing one started run, outside any transaction (its thread already exists): call the executor
 * under the job's timeout, store the transcript and settle. The lease is renewed elsewhere
 * (one heartbeat for all of an instance's runs); this only reacts when it is aborted.
 */
import type { Db } from '../db/client.ts'
import {
  RunFailure,
  RunSkipped,
  type ExecutorMessage,
  type RunContext,
  type RunExecutor,
} from '../runs/executor.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { settleRun, type RunOutcome } from '../runs/settle.ts'
import { createLiveTranscript } from '../runs/live-transcript.ts'
import { createRunThreads, keepInstructionsHead } from '../runs/threads.ts'
import type { StartedRun } from '../runs/run-job.ts'
import type { RunRow } from '../runs/schema.ts'
import type { Clock } from './clock.ts'

/** Why a run's signal was aborted by the scheduler (the executor sees it as `signal.reason`). */
export type AbortCause = { kind: 'shutdown'; graceMs: number } | { kind: 'lease-lost' }

export type RunnerDeps = {
  db: Db
  clock: Clock
  instance: string
  executor: RunExecutor
  backoffMs?: readonly number[]
  /** Told about each run this instance settled or reaped (delivery and alerts; must not throw or block). */
  afterSettle?: (run: RunRow) => void
}

/**
 * Runs to completion and always settles, in `finally`: a transcript that cannot be stored makes the
 * run `error` with the reason rather than leaving it `running`. Never throws; if even the settle
 * fails (database gone), the run leaves this instance's in-flight set, so its lease is no longer
 * renewed and the reaper settles it within the lease TTL.
 */
export async function executeRun(deps: RunnerDeps, started: StartedRun, controller: AbortController) {
  const { run, job } = started
  let outcome: RunOutcome = {
    status: 'error',
    error: 'The run could not be started',
    reason: 'the scheduler could not prepare it',
  }
  try {
    const threadId = run.threadId ?? newId('thr')
    if (!run.threadId) {
      const userId = run.runAsUserId ?? job.createdBy
      await createRunThreads(
        [
          {
            threadId,
            runId: run.id,
            orgId: job.orgId,
            userId,
            title: job.name,
            instructions: job.instructions,
          },
        ],
        deps.db,
      )
    }
    const live = createLiveTranscript(threadId, deps.db)
    const result = await callExecutor(deps, started, threadId, controller, live.report)
    outcome = result.outcome
    try {
      await live.finish(result.transcript)
    } catch (err) {
      logger.error({ err, runId: run.id }, 'could not store a run transcript')
      outcome = {
        status: 'error',
        error: `The run finished but its transcript could not be stored: ${describe(err)}`,
        reason: 'its transcript could not be saved',
        usage: outcome.usage,
      }
    }
    // Unanswered, it keeps the start of its instructions only (decision 0503); a failure to cut
    // them changes nothing about how the run went.
    if (outcome.status !== 'success' && !result.transcript.some((m) => m.role === 'assistant'))
      await keepInstructionsHead(threadId, deps.db).catch((err: unknown) =>
        logger.warn({ err, runId: run.id }, 'could not cut the instructions of an unanswered run'),
      )
  } catch (err) {
    logger.error({ err, runId: run.id }, 'could not prepare a run')
    outcome = { ...outcome, error: `The run could not be started: ${describe(err)}` } as RunOutcome
  } finally {
    await settle(deps, run.id, job.name, outcome)
  }
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500)

async function settle(deps: RunnerDeps, runId: string, jobName: string, outcome: RunOutcome) {
  try {
    const options = {
      guard: { instance: deps.instance },
      now: deps.clock.sqlNow(),
      backoffMs: deps.backoffMs,
      jobName,
    }
    const settled = await settleRun(runId, outcome, options, deps.db)
    if (!settled) logger.warn({ runId }, 'run was settled elsewhere (lease lost); result dropped')
    else deps.afterSettle?.(settled)
  } catch (err) {
    logger.error({ err, runId }, 'could not settle a run; its lease will lapse and the reaper will settle it')
  }
}

async function callExecutor(
  deps: RunnerDeps,
  { run, job }: StartedRun,
  threadId: string,
  controller: AbortController,
  progress: RunContext['progress'],
): Promise<{ outcome: RunOutcome; transcript: ExecutorMessage[] }> {
  const timeoutMs = job.timeoutMinutes * 60_000
  let cancelTimer = () => {}
  const timedOut = new Promise<'timeout'>((resolve) => {
    cancelTimer = deps.clock.setTimer(() => resolve('timeout'), timeoutMs)
  })
  const aborted = new Promise<'aborted'>((resolve) => {
    if (controller.signal.aborted) resolve('aborted')
    controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true })
  })
  const context = {
    run,
    job,
    runAsUserId: run.runAsUserId ?? job.createdBy,
    threadId,
    signal: controller.signal,
    progress,
  }
  const work = (async () => deps.executor(context))()
  // Past a timeout or abort the executor's late answer (or error) is dropped on purpose.
  work.catch(() => {})
  try {
    const result = await Promise.race([work, timedOut, aborted])
    if (result === 'timeout') {
      controller.abort(new Error(`timed out after ${job.timeoutMinutes} min`))
      const error = `The run took longer than its ${job.timeoutMinutes}-minute timeout and was stopped`
      return {
        outcome: {
          status: 'timed_out',
          error,
          reason: `it ran longer than its ${job.timeoutMinutes}-minute time limit`,
        },
        transcript: [],
      }
    }
    if (result === 'aborted')
      return { outcome: interrupted(controller.signal.reason, deps.instance), transcript: [] }
    return { outcome: { status: 'success', usage: result.usage }, transcript: result.transcript }
  } catch (err) {
    if (err instanceof RunSkipped)
      return { outcome: { status: 'skipped', reason: err.message }, transcript: [] }
    const partial = err instanceof RunFailure ? err.partial : {}
    const error = err instanceof Error ? err.message : String(err)
    return {
      outcome: { status: 'error', error, reason: 'an error stopped it', usage: partial.usage },
      transcript: partial.transcript ?? [],
    }
  } finally {
    cancelTimer()
  }
}

function interrupted(cause: unknown, instance: string): RunOutcome {
  const c = cause as AbortCause | undefined
  if (c?.kind === 'shutdown') {
    return {
      status: 'interrupted',
      error: 'The server shut down before the run finished',
      reason: `the server running it (${instance}) shut down, and it did not finish in the ${c.graceMs < 1000 ? `${c.graceMs} ms` : `${Math.round(c.graceMs / 1000)} s`} the server waits for running work`,
    }
  }
  return {
    status: 'interrupted',
    error: 'The server running it lost touch with the database, so it stopped the run',
    reason: `the server running it (${instance}) lost touch with the database`,
  }
}
