/** A job's audit trail a page at a time for the API: `limit`, `cursor` (an entry id), `total`. */
import { count, eq } from 'drizzle-orm'
import type { Caller } from '../auth/caller.ts'
import { getDb } from '../db/client.ts'
import { jobAudit } from '../db/schema/index.ts'
import { IdPageQuery } from '../lib/paging.ts'
import { parseInput } from '../lib/validate.ts'
import { getJob, type JobAuditEntry } from './service.ts'
import { selectAuditRecords } from './store.ts'

export type AuditPage = { entries: JobAuditEntry[]; total: number; nextCursor: string | null }

export async function listJobAuditPage(
  caller: Caller,
  jobId: string,
  query: unknown = {},
): Promise<AuditPage> {
  const { limit, cursor } = parseInput(IdPageQuery, query ?? {})
  await getJob(caller, jobId)
  const [rows, [counted]] = await Promise.all([
    selectAuditRecords(jobId, getDb(), { limit: limit + 1, beforeId: cursor }),
    getDb().select({ total: count() }).from(jobAudit).where(eq(jobAudit.jobId, jobId)),
  ])
  const entries = rows.slice(0, limit).map((entry) => ({ ...entry, at: entry.at.toISOString() }))
  const last = entries.at(-1)
  return {
    entries,
    total: counted?.total ?? 0,
    nextCursor: rows.length > limit && last ? String(last.id) : null,
  }
}
