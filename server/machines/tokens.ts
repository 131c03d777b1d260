/**
 * Machine tokens: made by a signed-in person for their own computers, shown once, stored as a
 * SHA-256 hash (a token is 32 random bytes, so a fast hash is enough), named, revocable. A token
 * names the machine it connects: its id is the slug of the token's name (unique per person among
 * live tokens), its label the name itself, so two computers never share an id by accident.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, count, desc, eq, isNull } from 'drizzle-orm'
import { z } from 'zod'
import { getDb, type Db } from '../db/client.ts'
import { checkRoom } from '../db/lock.ts'
import { revokeTokens, tokenLockKey } from '../db/revoked-tokens.ts'
import { machineTokens } from '../db/schema/app.ts'
import { env } from '../env.ts'
import { toJobName } from '../jobs/field-schemas.ts'
import { isUniqueViolation } from '../jobs/store.ts'
import { badRequest, conflict, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { parseInput } from '../lib/validate.ts'

export const TOKEN_PREFIX = 'cwm_'

/**
 * Live machine tokens one person may hold (decision 0382): each is a row in a table every
 * organisation shares, and a script could make them without end. A token connects one machine, so
 * the ceiling is never below the machines an account may have (`USER_MAX_MACHINES`).
 */
export const MAX_LIVE_MACHINE_TOKENS = 20

/** The ceiling in force: MAX_LIVE_MACHINE_TOKENS, or USER_MAX_MACHINES where that is more. */
export const liveMachineTokenLimit = () => Math.max(MAX_LIVE_MACHINE_TOKENS, env().USER_MAX_MACHINES)

export const TokenInput = z.strictObject({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .max(80, { error: 'must be at most 80 characters' })
    .describe('A name to recognise the token by, e.g. "Ana\'s laptop"'),
})

export type TokenSummary = {
  id: string
  name: string
  /** The machine it connects (`provider: machine:<machineId>`); null for tokens from before. */
  machineId: string | null
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

function summary(row: typeof machineTokens.$inferSelect): TokenSummary {
  return {
    id: row.id,
    name: row.name,
    machineId: row.machineId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }
}

// Paths beside /_agent-native/machines/<id> (a machine so named could not be addressed).
const RESERVED_IDS = new Set(['tokens', 'internal', 'connect'])

const liveTokensOf = (ownerId: string) =>
  and(eq(machineTokens.ownerId, ownerId), isNull(machineTokens.revokedAt))

/** The machine id a token name gives: "Ana's laptop" → `anas-laptop`. */
export const machineIdFor = (name: string) => toJobName(name.replace(/['’]/g, ''))

/**
 * Makes a token for `ownerId`; the plain token is in the answer and nowhere else, ever.
 * @throws HttpError 409 on `name` when a live token of theirs already connects that machine id,
 *   and 409 when they hold `liveMachineTokenLimit()` live tokens already.
 */
export async function createMachineToken(
  ownerId: string,
  input: unknown,
  db: Db = getDb(),
): Promise<{ token: string; summary: TokenSummary }> {
  const { name } = parseInput(TokenInput, input)
  const machineId = machineIdFor(name)
  if (!machineId) throw badRequest('name: needs at least one letter or digit (it names the machine)', 'name')
  if (RESERVED_IDS.has(machineId)) throw badRequest(`name: "${name}" is reserved; choose another`, 'name')
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url')
  const limit = liveMachineTokenLimit()
  try {
    const row = await db.transaction(async (tx) => {
      // One person's creations take turns, so requests racing cannot pass the ceiling together.
      await checkRoom(
        tx,
        tokenLockKey('machine', ownerId),
        limit,
        async () => (await tx.select({ n: count() }).from(machineTokens).where(liveTokensOf(ownerId)))[0]!.n,
        (n) =>
          conflict(
            `You have ${n} live machine tokens, and one person may have at most ${limit}: revoke one first`,
          ),
      )
      const [inserted] = await tx
        .insert(machineTokens)
        .values({ id: newId('mtok'), ownerId, name, machineId, tokenHash: hashToken(token) })
        .returning()
      return inserted!
    })
    return { token, summary: summary(row) }
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    throw conflict(
      `name: one of your tokens already connects the machine "${machineId}"; revoke it first, or choose another name`,
      'name',
    )
  }
}

export async function listMachineTokens(ownerId: string, db: Db = getDb()): Promise<TokenSummary[]> {
  const rows = await db
    .select()
    .from(machineTokens)
    .where(liveTokensOf(ownerId))
    .orderBy(desc(machineTokens.createdAt))
  return rows.map(summary)
}

/**
 * Marks one of the owner's tokens revoked (service.ts also closes what it connected); someone
 * else's token is a 404, as if it did not exist. Only their most recently revoked tokens stay
 * stored (db/revoked-tokens.ts).
 */
export async function revokeMachineToken(ownerId: string, id: string, db: Db = getDb()): Promise<void> {
  const rows = await revokeTokens('machine', ownerId, db, { where: eq(machineTokens.id, id) })
  if (rows.length === 0) throw notFound('No such machine token')
}

/** A live token as a connection knows it: whose, which, and the machine it names. */
export type VerifiedToken = { ownerId: string; tokenId: string; machineId: string | null; name: string }

/** The owner of a live token (and notes its use), or null: unknown, malformed or revoked. */
export async function verifyMachineToken(token: string, db: Db = getDb()): Promise<VerifiedToken | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null
  const rows = await db
    .update(machineTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(machineTokens.tokenHash, hashToken(token)), isNull(machineTokens.revokedAt)))
    .returning()
  const row = rows[0]
  return row ? { ownerId: row.ownerId, tokenId: row.id, machineId: row.machineId, name: row.name } : null
}

/** Whether the token is still live (a holder checks its connections' tokens while they stay open). */
export async function isTokenLive(tokenId: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db
    .select({ id: machineTokens.id })
    .from(machineTokens)
    .where(and(eq(machineTokens.id, tokenId), isNull(machineTokens.revokedAt)))
  return rows.length > 0
}
