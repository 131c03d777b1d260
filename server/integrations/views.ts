/**
 * What people read of delivery and alerts: a run's delivery attempts (the run page), their own
 * notifications with the unread count (the header bell), and whether email is on.
 */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Caller } from '../access/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import { deliveryAttempts, notifications } from '../db/schema/integrations.ts'
import { parseInput } from '../lib/validate.ts'
import { findVisibleRun } from '../runs/service.ts'
import { emailEnabled } from './email.ts'

/**
 * `delivered`, `failed`, or `paced`: an email held back, not sent and not retried, because its
 * address had too many job mails recently (decision 0531); `pacedUntil` says until when.
 */
export type DeliveryOutcome = 'delivered' | 'failed' | 'paced'

export type DeliveryAttemptView = {
  target: string
  messageId: string
  attempt: number
  ok: boolean
  outcome: DeliveryOutcome
  pacedUntil: string | null
  statusCode: number | null
  durationMs: number
  error: string | null
  at: string
}

/** A run's delivery attempts in order; 404 unless the caller may see the run's job. */
export async function listRunDeliveries(
  caller: Caller,
  runId: string,
  db: Db = getDb(),
): Promise<DeliveryAttemptView[]> {
  await findVisibleRun(caller, runId, db)
  const rows = await db
    .select()
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.runId, runId))
    .orderBy(asc(deliveryAttempts.id))
  return rows.map((r) => ({
    target: r.target,
    messageId: r.messageId,
    attempt: r.attempt,
    ok: r.ok,
    outcome: r.ok ? 'delivered' : r.pacedUntil ? 'paced' : 'failed',
    pacedUntil: r.pacedUntil?.toISOString() ?? null,
    statusCode: r.statusCode,
    durationMs: r.durationMs,
    error: r.error,
    at: r.at.toISOString(),
  }))
}

export type NotificationView = {
  id: string
  jobId: string | null
  kind: string
  title: string
  body: string
  read: boolean
  createdAt: string
}

/** The caller's latest notifications in their active organisation, newest first, and how many are unread. */
export async function listNotifications(
  caller: Caller,
  db: Db = getDb(),
): Promise<{ notifications: NotificationView[]; unread: number }> {
  const mine = and(eq(notifications.userId, caller.userId), eq(notifications.orgId, caller.orgId))
  const [rows, unread] = await Promise.all([
    db.select().from(notifications).where(mine).orderBy(desc(notifications.createdAt)).limit(50),
    countUnread(caller, db),
  ])
  return {
    notifications: rows.map((r) => ({
      id: r.id,
      jobId: r.jobId,
      kind: r.kind,
      title: r.title,
      body: r.body,
      read: r.readAt !== null,
      createdAt: r.createdAt.toISOString(),
    })),
    unread,
  }
}

/** How many unread notifications the caller has (the header's badge). */
export async function countUnread(caller: Caller, db: Db = getDb()): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select ${unreadCount(caller)} as n`)
  return Number(row?.n ?? 0)
}

/** The caller's unread notifications in their organisation, as a scalar subquery (the header's bell). */
export const unreadCount = (caller: Caller): SQL<number> =>
  sql<number>`(select count(*)::int from ${notifications} where ${and(
    eq(notifications.userId, caller.userId),
    eq(notifications.orgId, caller.orgId),
    isNull(notifications.readAt),
  )})`

export const MarkReadInput = z.strictObject({
  ids: z
    .array(z.string().regex(/^ntf_[a-z0-9]+$/, { error: 'must be notification ids' }), {
      error: 'must be a list of ids',
    })
    .max(200, { error: 'must list at most 200 ids' })
    .optional()
    .describe('Which to mark read; all of the caller’s in this organisation when left out'),
})

/**
 * Marks the caller's notifications in their active organisation read (the listed ones, or all), as
 * the page and the bell show them; returns the unread count left. Another organisation's stay
 * unread: marked from here, its alerts would be cleared unseen.
 */
export async function markNotificationsRead(
  caller: Caller,
  body: unknown,
  db: Db = getDb(),
): Promise<number> {
  const { ids } = parseInput(MarkReadInput, body ?? {})
  const mine = and(
    eq(notifications.userId, caller.userId),
    eq(notifications.orgId, caller.orgId),
    isNull(notifications.readAt),
  )
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(ids ? and(mine, inArray(notifications.id, ids)) : mine)
  return countUnread(caller, db)
}

/** Whether SMTP is configured (the UI says "email is off" when not). */
export const emailStatus = () => ({ enabled: emailEnabled() })
