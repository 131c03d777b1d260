/**
 * Calendar feed tokens: made by a person for their own calendar app, shown once, stored as a
 * SHA-256 hash (32 random bytes, so a fast hash is enough), revocable. A token reads the jobs its
 * owner sees in the organisation it was made in, with the owner's current rights: someone who
 * left the organisation gets nothing.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, count, desc, eq } from 'drizzle-orm'
import { findMembership, findUser } from '../accounts/store.ts'
import { callerFrom, type Caller } from '../access/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { checkRoom } from '../db/lock.ts'
import { calendarTokens } from '../db/schema/index.ts'
import { conflict, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'

export const CALENDAR_TOKEN_PREFIX = 'cwc_'

/**
 * Live feed tokens one person may hold in one organisation (decision 0456): their list is read
 * whole, and one per calendar app and device leaves room to spare. Revoking deletes a token, so
 * every stored one is live. Refused with 409, as machine and access tokens are.
 */
export const MAX_LIVE_CALENDAR_TOKENS = 20

export type CalendarTokenSummary = { id: string; createdAt: string; lastUsedAt: string | null }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

const summary = (row: typeof calendarTokens.$inferSelect): CalendarTokenSummary => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
})

/** The caller's tokens in their current organisation. */
const tokensOf = (caller: Pick<Caller, 'userId' | 'orgId'>) =>
  and(eq(calendarTokens.userId, caller.userId), eq(calendarTokens.orgId, caller.orgId))

/**
 * A new feed token for the caller in their current organisation; the plain token is only in the
 * answer. 409 `conflict` past MAX_LIVE_CALENDAR_TOKENS.
 */
export async function createCalendarToken(
  caller: Caller,
  db: Db = getDb(),
): Promise<{ token: string; summary: CalendarTokenSummary }> {
  const token = CALENDAR_TOKEN_PREFIX + randomBytes(32).toString('base64url')
  const row = await db.transaction(async (tx) => {
    // One person's creations take turns, so requests racing cannot pass the ceiling together.
    await checkRoom(
      tx,
      `calendar-tokens:${caller.userId}`,
      MAX_LIVE_CALENDAR_TOKENS,
      async () => (await tx.select({ n: count() }).from(calendarTokens).where(tokensOf(caller)))[0]!.n,
      (n) =>
        conflict(`You have ${n} live calendar tokens here, the most one person may have: revoke one first`),
    )
    const [inserted] = await tx
      .insert(calendarTokens)
      .values({ id: newId('ctok'), userId: caller.userId, orgId: caller.orgId, tokenHash: hashToken(token) })
      .returning()
    return inserted!
  })
  return { token, summary: summary(row) }
}

/** The caller's tokens in their current organisation, newest first. */
export async function listCalendarTokens(caller: Caller, db: Db = getDb()): Promise<CalendarTokenSummary[]> {
  const rows = await db
    .select()
    .from(calendarTokens)
    .where(tokensOf(caller))
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
