/** SQL for `secrets`: one row per owner (a user or an org) and name; the value is encrypted. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { secrets } from '../db/schema/environments.ts'
import { newId } from '../lib/ids.ts'
import type { KeyOwner } from './store.ts'

const ownerFilter = (owner: KeyOwner) =>
  'userId' in owner
    ? and(eq(secrets.userId, owner.userId), isNull(secrets.orgId))
    : and(eq(secrets.orgId, owner.orgId), isNull(secrets.userId))

export async function upsertSecret(owner: KeyOwner, name: string, secret: string, db: Db = getDb()) {
  const personal = 'userId' in owner
  await db
    .insert(secrets)
    .values({
      id: newId('sec'),
      userId: personal ? owner.userId : null,
      orgId: personal ? null : owner.orgId,
      name,
      secret,
    })
    .onConflictDoUpdate({
      target: personal ? [secrets.userId, secrets.name] : [secrets.orgId, secrets.name],
      targetWhere: personal ? isNull(secrets.orgId) : isNull(secrets.userId),
      set: { secret, updatedAt: sql`now()` },
    })
}

export async function selectSecrets(owner: KeyOwner, names?: string[], db: Db = getDb()) {
  const filter = names ? and(ownerFilter(owner), inArray(secrets.name, names)) : ownerFilter(owner)
  return db.select().from(secrets).where(filter).orderBy(secrets.name)
}

export async function deleteSecretRow(owner: KeyOwner, name: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db
    .delete(secrets)
    .where(and(ownerFilter(owner), eq(secrets.name, name)))
    .returning({ id: secrets.id })
  return rows.length > 0
}
