/** SQL for `secrets`: one row per owner (a user or an org) and name; the value is encrypted. */
import { and, count, eq, inArray, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { secrets } from '../db/schema/environments.ts'
import { newId } from '../lib/ids.ts'
import { ownedBy, ownerColumns, ownerConflict, type KeyOwner } from './owners.ts'

export async function upsertSecret(owner: KeyOwner, name: string, secret: string, db: Db = getDb()) {
  await db
    .insert(secrets)
    .values({ id: newId('sec'), ...ownerColumns(owner), name, secret })
    .onConflictDoUpdate({
      ...ownerConflict(secrets, owner, secrets.name),
      set: { secret, updatedAt: sql`now()` },
    })
}

/** How many secrets `owner` stores. */
export async function countSecrets(owner: KeyOwner, db: Db = getDb()): Promise<number> {
  const [row] = await db.select({ n: count() }).from(secrets).where(ownedBy(secrets, owner))
  return row?.n ?? 0
}

export async function selectSecrets(owner: KeyOwner, names?: string[], db: Db = getDb()) {
  const filter = names ? and(ownedBy(secrets, owner), inArray(secrets.name, names)) : ownedBy(secrets, owner)
  return db.select().from(secrets).where(filter).orderBy(secrets.name)
}

export async function deleteSecretRow(owner: KeyOwner, name: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db
    .delete(secrets)
    .where(and(ownedBy(secrets, owner), eq(secrets.name, name)))
    .returning({ id: secrets.id })
  return rows.length > 0
}
