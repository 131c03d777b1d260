/**
 * SQL for `model_keys`. A row belongs to exactly one user (a personal key, org_id null) or one
 * organisation (user_id null); one key per owner and provider (partial unique indexes).
 */
import { and, eq, isNull, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { modelKeys } from '../db/schema/app.ts'
import { newId } from '../lib/ids.ts'
import { ownedBy, ownerColumns, ownerConflict, type KeyOwner } from './owners.ts'

export type { KeyOwner } from './owners.ts'

export type StoredKeyRow = typeof modelKeys.$inferSelect
/** One save of a stored key: its row and the ciphertext that save wrote. */
export type StoredKeyRef = Pick<StoredKeyRow, 'id' | 'secret'>

const ownerFilter = (owner: KeyOwner) => ownedBy(modelKeys, owner)

/** Inserts or replaces the owner's key for `provider`. `secret` is already encrypted. */
export async function upsertModelKey(
  input: { owner: KeyOwner; provider: string; secret: string; last4: string },
  db: Db = getDb(),
): Promise<void> {
  const { owner, provider, secret, last4 } = input
  await db
    .insert(modelKeys)
    .values({ id: newId('key'), ...ownerColumns(owner), provider, secret, last4 })
    .onConflictDoUpdate({
      ...ownerConflict(modelKeys, owner, modelKeys.provider),
      // Saving a key again is how a person says it works now: a refusal on record is forgotten.
      set: { secret, last4, updatedAt: sql`now()`, refusedAt: null, refusedReason: null },
    })
}

/**
 * Records that the provider refused the key stored as row `id` with ciphertext `secret` (decision
 * 0505). Every save encrypts afresh (a new IV), so a key saved again since it was read, even the
 * same key, has another ciphertext: the refusal is not its own, and nothing changes. The first
 * refusal on record stays. True when this call recorded it (the one to announce it).
 */
export async function markModelKeyRefused(
  ref: StoredKeyRef,
  reason: string,
  db: Db = getDb(),
): Promise<boolean> {
  const rows = await db
    .update(modelKeys)
    .set({ refusedAt: sql`now()`, refusedReason: reason })
    .where(and(eq(modelKeys.id, ref.id), eq(modelKeys.secret, ref.secret), isNull(modelKeys.refusedAt)))
    .returning({ id: modelKeys.id })
  return rows.length > 0
}

/** The owner's keys, one per provider. */
export async function selectModelKeys(owner: KeyOwner, db: Db = getDb()): Promise<StoredKeyRow[]> {
  return db.select().from(modelKeys).where(ownerFilter(owner)).orderBy(modelKeys.provider)
}

/** The owner's key for `provider`, if stored. */
export async function findModelKey(
  owner: KeyOwner,
  provider: string,
  db: Db = getDb(),
): Promise<StoredKeyRow | undefined> {
  const rows = await db
    .select()
    .from(modelKeys)
    .where(and(ownerFilter(owner), eq(modelKeys.provider, provider)))
  return rows[0]
}

/** Removes the owner's key for `provider`; true when there was one. */
export async function deleteModelKeyRow(
  owner: KeyOwner,
  provider: string,
  db: Db = getDb(),
): Promise<boolean> {
  const rows = await db
    .delete(modelKeys)
    .where(and(ownerFilter(owner), eq(modelKeys.provider, provider)))
    .returning({ id: modelKeys.id })
  return rows.length > 0
}
