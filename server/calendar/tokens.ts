/**
 * Calendar feed tokens: made by a person for their own calendar app, shown once, stored as a
 * SHA-256 hash (32 random bytes, so a fast hash is enough), revocable. A token reads the jobs its
 * owner sees in the organisation it was made in, with the owner's current rights: someone who
 * left the organisation gets nothing.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import { findMembership, findUser } from '../accounts/store.ts'
import { callerFrom, type Caller } from '../access/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { calendarTokens } from '../db/schema/index.ts'
import { notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'

export const CALENDAR_TOKEN_PREFIX = 'cwc_'

export type CalendarTokenSummary = { id: string; createdAt: string; lastUsedAt: string | null }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

const summary = (row: typeof calendarTokens.$inferSelect): CalendarTokenSummary => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
})

/** A new feed token for the caller in their current organisation; the plain token is only in the answer. */
export async function createCalendarToken(
  caller: Caller,
  db: Db = getDb(),
): Promise<{ token: string; summary: CalendarTokenSummary }> {
  const token = CALENDAR_TOKEN_PREFIX + randomBytes(32).toString('base64url')
  const [row] = await db
    .insert(calendarTokens)
    .values({ id: newId('ctok'), userId: caller.userId, orgId: caller.orgId, tokenHash: hashToken(token) })
    .returning()
  return { token, summary: summary(row!) }
}

/** The caller's tokens in their current organisation, newest first. */
export async function listCalendarTokens(caller: Caller, db: Db = getDb()): Promise<CalendarTokenSummary[]> {
  const rows = await db
    .select()
    .from(calendarTokens)
    .where(and(eq(calendarTokens.userId, caller.userId), eq(calendarTokens.orgId, caller.orgId)))
    .orderBy(desc(calendarTokens.createdAt))
  return rows.map(summary)
}

/** Deletes one of the caller's tokens; anyone else's is a 404, as if it did not exist. */
export async function revokeCalendarToken(caller: Caller, id: string, db: Db = getDb()): Promise<void> {
  const rows = await db
    .delete(calendarTokens)
    .where(and(eq(calendarTokens.id, id), eq(calendarTokens.userId, caller.userId)))
    .returning({ id: calendarTokens.id })
  if (rows.length === 0) throw notFound('No such calendar token')
}

/** The caller a live token reads as (and notes its use), or null: unknown, malformed, revoked, or no longer a member. */
export async function callerForCalendarToken(token: string, db: Db = getDb()): Promise<Caller | null> {
  if (!token.startsWith(CALENDAR_TOKEN_PREFIX) || token.length > 100) return null
  const [row] = await db
    .update(calendarTokens)
    .set({ lastUsedAt: new Date() })
    .where(eq(calendarTokens.tokenHash, hashToken(token)))
    .returning()
  if (!row) return null
  const [user, membership] = await Promise.all([findUser(row.userId), findMembership(row.userId, row.orgId)])
  return user && membership ? callerFrom(user, membership) : null
}
