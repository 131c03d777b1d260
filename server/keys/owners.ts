/**
 * What model keys and secrets share: a row belongs to exactly one user (org id null) or one
 * organisation (user id null), each table has one partial unique index per kind of owner, and
 * people reach them by scope (`personal`, or `org` for admins and owners).
 */
import { and, eq, isNull, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { forbidden } from '../lib/errors.ts'

/** Whose row: a user's own or an organisation's. */
export type KeyOwner = { userId: string } | { orgId: string }

export type OwnerScope = 'personal' | 'org'

/** The owner columns of a table whose rows follow the one-owner rule. */
type OwnedTable = { userId: PgColumn; orgId: PgColumn }

/** The filter for `owner`'s rows. */
export function ownedBy(table: OwnedTable, owner: KeyOwner): SQL {
  return 'userId' in owner
    ? and(eq(table.userId, owner.userId), isNull(table.orgId))!
    : and(eq(table.orgId, owner.orgId), isNull(table.userId))!
}

/** The owner columns of a new row. */
export const ownerColumns = (owner: KeyOwner) =>
  'userId' in owner ? { userId: owner.userId, orgId: null } : { userId: null, orgId: owner.orgId }

/** The unique index an upsert for `owner` meets: one row per owner and `key` (provider, name). */
export function ownerConflict(table: OwnedTable, owner: KeyOwner, key: PgColumn) {
  return 'userId' in owner
    ? { target: [table.userId, key], targetWhere: isNull(table.orgId) }
    : { target: [table.orgId, key], targetWhere: isNull(table.userId) }
}

/** The owner a scope means when the caller changes something: 403 for `org` unless an admin or owner. */
export function ownerToChange(caller: Caller, scope: OwnerScope, what: string): KeyOwner {
  if (scope === 'personal') return { userId: caller.userId }
  if (!isOrgAdmin(caller)) throw forbidden(`Only the organisation's admins and owners may change its ${what}`)
  return { orgId: caller.orgId }
}

/** The caller's own rows, then their organisation's, each summarised with its scope. */
export async function listBothScopes<Row, Summary>(
  caller: Caller,
  select: (owner: KeyOwner) => Promise<Row[]>,
  summarise: (scope: OwnerScope, row: Row) => Summary,
): Promise<Summary[]> {
  const [personal, org] = await Promise.all([
    select({ userId: caller.userId }),
    select({ orgId: caller.orgId }),
  ])
  return [...personal.map((r) => summarise('personal', r)), ...org.map((r) => summarise('org', r))]
}
