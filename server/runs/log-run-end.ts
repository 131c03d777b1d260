/**
 * One log line per run that ends (issue 26 item 14): which job, how it ended, how long it took and
 * what it cost, so a developer watching the server sees runs finish, not only alerts.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import { logger } from '../lib/logger.ts'
import { FAILED_STATUSES, type RunRow } from './schema.ts'
import { runCostWords, runDurationWords, runEndedWords } from './words.ts'

const failed: ReadonlySet<string> = new Set(FAILED_STATUSES)

/** Logs the end of `run`: info for a success or a skip, warn for a failure. Never throws. */
export async function logRunEnd(run: RunRow, jobName: string | undefined, db: Db): Promise<void> {
  try {
    const job = jobName ?? (await nameOf(run.jobId, db)) ?? run.jobId
    const durationMs =
      run.startedAt && run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null
    const costUsd = run.costUsd === null ? null : Number(run.costUsd)
    const fields = {
      job,
      jobId: run.jobId,
      runId: run.id,
      status: run.status,
      durationMs,
      costUsd,
      ...(run.error ? { error: run.error.slice(0, 200) } : {}),
    }
    const line = `run ended: ${job} ${runEndedWords(run.status)} in ${runDurationWords(durationMs)}, ${runCostWords(costUsd)}`
    if (failed.has(run.status)) logger.warn(fields, line)
    else logger.info(fields, line)
  } catch (err) {
    logger.warn({ err, runId: run.id }, 'could not log the end of a run')
  }
}

async function nameOf(jobId: string, db: Db): Promise<string | null> {
  const [row] = await queryRows<{ name: string }>(db, sql`select name from jobs where id = ${jobId}`)
  return row?.name ?? null
}
