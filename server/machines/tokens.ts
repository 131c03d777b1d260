/**
 * Machine tokens: made by a signed-in person for their own computers, shown once, stored as a
 * SHA-256 hash (a token is 32 random bytes, so a fast hash is enough), named, revocable.
 */
import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, isNull } from 'drizzle-orm'
import { z } from 'zod'
import { getDb, type Db } from '../db/client.ts'
import { machineTokens } from '../db/schema/app.ts'
import { notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { parseInput } from '../lib/validate.ts'

export const TOKEN_PREFIX = 'cwm_'

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
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

function summary(row: typeof machineTokens.$inferSelect): TokenSummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }
}

/** Makes a token for `ownerId`; the plain token is in the answer and nowhere else, ever. */
export async function createMachineToken(
  ownerId: string,
  input: unknown,
  db: Db = getDb(),
): Promise<{ token: string; summary: TokenSummary }> {
  const { name } = parseInput(TokenInput, input)
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url')
  const [row] = await db
    .insert(machineTokens)
    .values({ id: newId('mtok'), ownerId, name, tokenHash: hashToken(token) })
    .returning()
  return { token, summary: summary(row!) }
}

export async function listMachineTokens(ownerId: string, db: Db = getDb()): Promise<TokenSummary[]> {
  const rows = await db
    .select()
    .from(machineTokens)
    .where(and(eq(machineTokens.ownerId, ownerId), isNull(machineTokens.revokedAt)))
    .orderBy(desc(machineTokens.createdAt))
  return rows.map(summary)
}

/** Revokes one of the owner's tokens; someone else's token is a 404, as if it did not exist. */
export async function revokeMachineToken(ownerId: string, id: string, db: Db = getDb()): Promise<void> {
  const rows = await db
    .update(machineTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(machineTokens.id, id), eq(machineTokens.ownerId, ownerId), isNull(machineTokens.revokedAt)))
    .returning({ id: machineTokens.id })
  if (rows.length === 0) throw notFound('No such machine token')
}

/** The owner of a live token (and notes its use), or null: unknown, malformed or revoked. */
export async function verifyMachineToken(
  token: string,
  db: Db = getDb(),
): Promise<{ ownerId: string; tokenId: string } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null
  const rows = await db
    .update(machineTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(machineTokens.tokenHash, hashToken(token)), isNull(machineTokens.revokedAt)))
    .returning({ ownerId: machineTokens.ownerId, id: machineTokens.id })
  const row = rows[0]
  return row ? { ownerId: row.ownerId, tokenId: row.id } : null
}
