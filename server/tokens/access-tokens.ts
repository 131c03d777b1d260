/**
 * Personal access tokens: made by a signed-in person for their own MCP client (Claude Code, Claude
 * Desktop, …), named, scoped, shown once, stored as a SHA-256 hash (32 random bytes, so a fast hash
 * is enough), revocable, with the time of last use. A token acts as its owner in the organisation
 * it was made in, with the owner's current rights: someone who left the organisation gets nothing.
 * Every use is counted against a per-token rate limit in the same statement that checks it, so the
 * limit holds across instances; a token refused as over it is answered from memory until its
 * window ends (over-limit.ts).
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import { findMembership, findUser } from '../accounts/store.ts'
import { callerFrom, type Caller } from '../access/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { checkRoom } from '../db/lock.ts'
import { revokeTokens, tokenLockKey } from '../db/revoked-tokens.ts'
import { accessTokens } from '../db/schema/index.ts'
import { badFields, conflict, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { notInlineText } from '../lib/text.ts'
import { OverLimitTokens } from './over-limit.ts'

export const ACCESS_TOKEN_PREFIX = 'cwp_'

/**
 * Live tokens one person may hold in one organisation. The rate limit is counted per token, so
 * without a ceiling a script that makes itself tokens multiplies it (decision 0380); one per
 * client and computer leaves room to spare.
 */
export const MAX_LIVE_ACCESS_TOKENS = 20

/** What a token may do: read or change jobs (and their files), read or start runs. */
export const ACCESS_TOKEN_SCOPES = ['jobs:read', 'jobs:write', 'runs:read', 'runs:write'] as const
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number]

export const AccessTokenInput = z.strictObject({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .max(80, { error: 'must be at most 80 characters' })
    // The name is shown inside other text (the audit's "via access token …", the token list), so
    // nothing in it may end its line or turn the text after it around (decision 0417).
    .superRefine((v, ctx) => {
      const why = notInlineText(v)
      if (why) ctx.addIssue({ code: 'custom', message: why })
    })
    .describe('A name to recognise the token by, e.g. "Claude Code on my laptop"'),
  scopes: z
    .array(z.enum(ACCESS_TOKEN_SCOPES, { error: `must each be one of ${ACCESS_TOKEN_SCOPES.join(', ')}` }), {
      error: 'is required: a list of jobs:read, jobs:write, runs:read, runs:write',
    })
    .min(1, { error: 'needs at least one scope' })
    .max(ACCESS_TOKEN_SCOPES.length, { error: 'lists a scope twice' })
    .refine((v) => new Set(v).size === v.length, { error: 'lists a scope twice' })
    .describe('What the token may do'),
})

export type AccessTokenSummary = {
  id: string
  name: string
  scopes: AccessTokenScope[]
  createdAt: string
  lastUsedAt: string | null
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

const summary = (row: typeof accessTokens.$inferSelect): AccessTokenSummary => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes as AccessTokenScope[],
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
})

/**
 * The input checked, with every bad field named at once (the first one is the error's `field`).
 * @throws HttpError 400
 */
function parseTokenInput(input: unknown): z.output<typeof AccessTokenInput> {
  const result = AccessTokenInput.safeParse(input ?? {})
  if (!result.success) {
    const seen = new Map<string, string>()
    for (const issue of result.error.issues) {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? 'body')]
      for (const key of keys) {
        if (!seen.has(key))
          seen.set(key, issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message)
      }
    }
    throw badFields([...seen].map(([field, message]) => ({ field, message: `${field}: ${message}` })))
  }
  return result.data
}

/** The caller's live (unrevoked) tokens in their current organisation. */
const liveTokensOf = (caller: Caller) =>
  and(
    eq(accessTokens.userId, caller.userId),
    eq(accessTokens.orgId, caller.orgId),
    isNull(accessTokens.revokedAt),
  )

/** A new token for the caller in their current organisation; the plain token is only in the answer. */
export async function createAccessToken(
  caller: Caller,
  input: unknown,
  db: Db = getDb(),
): Promise<{ token: string; summary: AccessTokenSummary }> {
  const { name, scopes } = parseTokenInput(input)
  // Scopes are stored in one order, so a token's list reads the same however it was asked for.
  const ordered = ACCESS_TOKEN_SCOPES.filter((s) => scopes.includes(s))
  const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url')
  const row = await db.transaction(async (tx) => {
    // One person's creations take turns, so requests racing cannot pass the ceiling together.
    await checkRoom(
      tx,
      tokenLockKey('access', caller.userId),
      MAX_LIVE_ACCESS_TOKENS,
      async () => (await tx.select({ n: count() }).from(accessTokens).where(liveTokensOf(caller)))[0]!.n,
      (n) =>
        conflict(`You have ${n} live access tokens here, the most one person may have: revoke one first`),
    )
    const [inserted] = await tx
      .insert(accessTokens)
      .values({
        id: newId('pat'),
        userId: caller.userId,
        orgId: caller.orgId,
        name,
        scopes: ordered,
        tokenHash: hashToken(token),
      })
      .returning()
    return inserted!
  })
  return { token, summary: summary(row) }
}

/** The caller's live tokens in their current organisation, newest first. */
export async function listAccessTokens(caller: Caller, db: Db = getDb()): Promise<AccessTokenSummary[]> {
  const rows = await db
    .select()
    .from(accessTokens)
    .where(liveTokensOf(caller))
    .orderBy(desc(accessTokens.createdAt))
  return rows.map(summary)
}

/**
 * Revokes one of the caller's tokens; someone else's is a 404, as if it did not exist. Every
 * request checks its token, so the next request of any session using it is refused. Only their
 * most recently revoked tokens stay stored (db/revoked-tokens.ts).
 */
export async function revokeAccessToken(caller: Caller, id: string, db: Db = getDb()): Promise<void> {
  const rows = await revokeTokens('access', caller.userId, db, { where: eq(accessTokens.id, id) })
  if (rows.length === 0) throw notFound('No such access token')
}

/** A live token's caller (who, where, through which token) and what it may do. */
export type TokenCaller = { caller: Caller; scopes: AccessTokenScope[] }

/** The outcome of presenting a token: its caller, or why not. */
export type TokenCheck =
  | ({ ok: true } & TokenCaller)
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number }

const WINDOW_SECONDS = 60

/** This instance's tokens refused as over their limit, until their windows end. */
const overLimit = new OverLimitTokens()

/**
 * Checks a token and counts this use against its rate limit (`perMinute` requests in a fixed
 * minute), noting the time of last use, in one statement. Unknown, malformed and revoked tokens,
 * and tokens of people no longer in the organisation, are `invalid`. A token this instance refused
 * as over its limit is refused again until its window ends without the database: the flood of a
 * client that does not wait costs no writes (`remembered` is this instance's memory).
 */
export async function checkAccessToken(
  token: string,
  perMinute: number,
  db: Db = getDb(),
  remembered: OverLimitTokens = overLimit,
): Promise<TokenCheck> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 100) return { ok: false, reason: 'invalid' }
  const hash = hashToken(token)
  const wait = remembered.waitFor(hash)
  if (wait !== null) return { ok: false, reason: 'rate_limited', retryAfterSeconds: wait }
  const fresh = sql`${accessTokens.windowStartedAt} > now() - make_interval(secs => ${WINDOW_SECONDS})`
  const [row] = await db
    .update(accessTokens)
    .set({
      lastUsedAt: sql`now()`,
      windowStartedAt: sql`case when ${fresh} then ${accessTokens.windowStartedAt} else now() end`,
      windowCount: sql`case when ${fresh} then ${accessTokens.windowCount} + 1 else 1 end`,
    })
    .where(and(eq(accessTokens.tokenHash, hash), isNull(accessTokens.revokedAt)))
    .returning({
      id: accessTokens.id,
      name: accessTokens.name,
      userId: accessTokens.userId,
      orgId: accessTokens.orgId,
      scopes: accessTokens.scopes,
      windowCount: accessTokens.windowCount,
      waitMs: sql<number>`ceil(extract(epoch from (${accessTokens.windowStartedAt} + make_interval(secs => ${WINDOW_SECONDS}) - now())) * 1000)::int`,
    })
  if (!row) return { ok: false, reason: 'invalid' }
  if (row.windowCount > perMinute) {
    const waitMs = Math.max(0, Number(row.waitMs))
    remembered.remember(hash, waitMs)
    return { ok: false, reason: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
  }
  const [user, membership] = await Promise.all([
    findUser(row.userId, db),
    findMembership(row.userId, row.orgId, db),
  ])
  if (!user || !membership) return { ok: false, reason: 'invalid' }
  const caller = { ...callerFrom(user, membership), via: { tokenId: row.id, tokenName: row.name } }
  return { ok: true, caller, scopes: row.scopes as AccessTokenScope[] }
}
