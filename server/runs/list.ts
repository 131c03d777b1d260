/**
 * A job's run history a page at a time for the API: `limit` (1–200, default 50) and `cursor`
 * (the previous page's `nextCursor`, a run id; `before` still works the same), with the total.
 */
import { count, eq } from 'drizzle-orm'
import type { Caller } from '../auth/caller.ts'
import { getDb } from '../db/client.ts'
import { jobRuns } from '../db/schema/index.ts'
import { HttpError, badRequest } from '../lib/errors.ts'
import { listRunsOfJob } from './service.ts'
import type { Run } from './schema.ts'
import { listJobRuns } from './store.ts'

export type RunPage = { runs: Run[]; total: number; nextCursor: string | null }

export async function listRunPage(caller: Caller, jobId: string, query: unknown = {}): Promise<RunPage> {
  const q = { ...((query ?? {}) as Record<string, unknown>) }
  const viaCursor = q.cursor !== undefined && q.cursor !== ''
  if (viaCursor) q.before = q.cursor
  delete q.cursor
  let runs: Run[]
  try {
    runs = await listRunsOfJob(caller, jobId, q)
  } catch (err) {
    // A bad cursor is reported as the field the caller sent.
    if (viaCursor && err instanceof HttpError && err.field === 'before') {
      throw badRequest(err.message.replace(/^before:/, 'cursor:'), 'cursor')
    }
    throw err
  }
  const limit = Number(q.limit ?? 50)
  const [counted] = await getDb().select({ total: count() }).from(jobRuns).where(eq(jobRuns.jobId, jobId))
  const total = counted?.total ?? 0
  const last = runs.at(-1)
  // A full page may be the last one: look for one older run.
  const more =
    runs.length === limit &&
    last !== undefined &&
    (
      await listJobRuns(jobId, {
        limit: 1,
        before: { scheduledFor: new Date(last.scheduledFor), attempt: last.attempt },
      })
    ).length > 0
  return { runs, total, nextCursor: more ? last.id : null }
}
