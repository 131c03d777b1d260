/**
 * Revoked token rows are kept only while recent (decision 0463). A revoked access or machine token
 * stays a row, with when it was made, last used and revoked (what an operator asks about a leaked
 * token), but the live caps alone did not bound them: a member who made and revoked tokens in a
 * loop grew the table without end. Every revoke goes through here and keeps, per person and kind,
 * only the KEEP_REVOKED_TOKENS most recently revoked. Calendar tokens are deleted when revoked.
 */
import { and, isNull, sql, type SQL } from 'drizzle-orm'
import type { Db } from './client.ts'
import { lockKey } from './lock.ts'
import { accessTokens, machineTokens } from './schema/index.ts'
import { inTransaction } from './sql.ts'

/** Revoked tokens kept per person and kind: no page lists them, so a short history is enough. */
export const KEEP_REVOKED_TOKENS = 20

const kinds = {
  access: { table: accessTokens, owner: accessTokens.userId },
  machine: { table: machineTokens, owner: machineTokens.ownerId },
}

export type TokenKind = keyof typeof kinds

/** The lock a person's tokens of one kind take turns on: creating (the live cap) and revoking. */
export const tokenLockKey = (kind: TokenKind, ownerId: string) => `${kind}-tokens:${ownerId}`

/**
 * Marks `ownerId`'s live tokens of `kind` revoked (only those `where` names too, when given) and
 * returns their ids, in a transaction holding that person's lock; then deletes their revoked rows
 * of that kind past the KEEP_REVOKED_TOKENS most recently revoked. The lock comes first, so revokes
 * racing each other or a create leave exactly that many, and never wait on each other's rows while
 * holding it.
 */
export async function revokeTokens(
  kind: TokenKind,
  ownerId: string,
  db: Db,
  { where, at = new Date() }: { where?: SQL; at?: Date } = {},
): Promise<{ id: string }[]> {
  const { table, owner } = kinds[kind]
  return inTransaction(db, async (tx) => {
    await lockKey(tx, tokenLockKey(kind, ownerId))
    const revoked = await tx
      .update(table)
      .set({ revokedAt: at })
      .where(and(sql`${owner} = ${ownerId}`, isNull(table.revokedAt), where))
      .returning({ id: table.id })
    await tx.execute(sql`
      delete from ${table} where ${table.id} in (
        select ${table.id} from ${table}
        where ${owner} = ${ownerId} and ${table.revokedAt} is not null
        order by ${table.revokedAt} desc, ${table.id} desc
        offset ${KEEP_REVOKED_TOKENS})`)
    return revoked
  })
}
