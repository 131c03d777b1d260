/**
 * How fast one person may fill the audit trails. Every command, file write and harness tool call
 * in an environment is recorded with its command line (up to 64 KiB) and, for a command, each file
 * it changed (up to 500 paths of 4 KiB); every change of a job with what changed (a job's
 * instructions before and after); every run a person starts with a copy of its instructions
 * (decision 0503). A member's loop of direct commands, job edits or Run now costs no model call (a
 * run's call on a key that is no key fails for free), and could add megabytes a second to the
 * database every tenant shares, kept for AUDIT_HISTORY_DAYS or RUN_HISTORY_DAYS. So each person's
 * actions may add USER_MAX_AUDIT_MB_PER_DAY a day (UTC), counted as rows are written
 * (`addAuditVolume`, in the writer's transaction); past it their next action is refused before it
 * acts (decision 0500).
 */
import { and, eq, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { auditVolume } from '../db/schema/index.ts'
import { env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { formatBytes } from '../lib/text.ts'

const MiB = 1024 * 1024

/**
 * What an audit row costs its actor's allowance beyond its text: its other columns, its tuple
 * header and its index entries, about this many bytes.
 */
const AUDIT_ROW_BYTES = 200

const today = sql`(now() at time zone 'utc')::date`

/** Adds what audit rows hold to their actors' volume of the day; `rows` without an actor are not counted. */
export async function addAuditVolume(db: Db, rows: { actorId?: string | null; bytes: number }[]) {
  const byActor = new Map<string, number>()
  for (const row of rows) {
    if (row.actorId) byActor.set(row.actorId, (byActor.get(row.actorId) ?? 0) + AUDIT_ROW_BYTES + row.bytes)
  }
  for (const [actorId, bytes] of byActor) {
    await db
      .insert(auditVolume)
      .values({ actorId, day: today, bytes })
      .onConflictDoUpdate({
        target: [auditVolume.actorId, auditVolume.day],
        set: { bytes: sql`${auditVolume.bytes} + excluded.bytes` },
      })
  }
}

/** The bytes `actorId`'s actions wrote to the audit trails today (UTC). */
async function auditedToday(actorId: string): Promise<number> {
  const [row] = await getDb()
    .select({ bytes: auditVolume.bytes })
    .from(auditVolume)
    .where(and(eq(auditVolume.actorId, actorId), eq(auditVolume.day, today)))
  return row?.bytes ?? 0
}

/** Why `actorId` may not act again today, or null while they may. */
export async function auditAllowanceRefusal(actorId: string): Promise<string | null> {
  const limit = env().USER_MAX_AUDIT_MB_PER_DAY * MiB
  const used = await auditedToday(actorId)
  if (used < limit) return null
  return (
    `Your commands, file writes and tool calls in environments, your job changes and the runs you ` +
    `started were recorded at ${formatBytes(used)} today (UTC), the most one person's may be ` +
    `(USER_MAX_AUDIT_MB_PER_DAY, ${formatBytes(limit)}); they are taken again after midnight UTC`
  )
}

/** @throws HttpError 429 `quota_exceeded` once `actorId`'s actions filled today's allowance. */
export async function assertAuditAllowance(actorId: string): Promise<void> {
  const refusal = await auditAllowanceRefusal(actorId)
  if (refusal) throw new HttpError(429, 'quota_exceeded', refusal)
}
