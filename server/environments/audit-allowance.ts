/**
 * How fast one person may fill the environment audit. Every command, file write and harness tool
 * call is recorded, with its command line (up to 64 KiB) and, for a command, each file it changed
 * (up to 500 paths of 4 KiB): a member's loop of direct commands, which costs no model call, could
 * add megabytes a second to the database every tenant shares, kept for AUDIT_HISTORY_DAYS. So each
 * person's actions may add USER_MAX_AUDIT_MB_PER_DAY a day (UTC), counted as rows are written
 * (store.ts `insertAudit`); past it their next action is refused before it runs (decision 0500).
 */
import { env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { formatBytes } from '../lib/text.ts'
import { auditedToday } from './store.ts'

const MiB = 1024 * 1024

/** Why `actorId` may not act in an environment again today, or null while they may. */
export async function auditAllowanceRefusal(actorId: string): Promise<string | null> {
  const limit = env().USER_MAX_AUDIT_MB_PER_DAY * MiB
  const used = await auditedToday(actorId)
  if (used < limit) return null
  return (
    `Your commands, file writes and tool calls in environments were recorded at ${formatBytes(used)} ` +
    `today (UTC), the most one person's may be (USER_MAX_AUDIT_MB_PER_DAY, ${formatBytes(limit)}); ` +
    'they run again after midnight UTC'
  )
}

/** @throws HttpError 429 `quota_exceeded` once `actorId`'s actions filled today's allowance. */
export async function assertAuditAllowance(actorId: string): Promise<void> {
  const refusal = await auditAllowanceRefusal(actorId)
  if (refusal) throw new HttpError(429, 'quota_exceeded', refusal)
}
