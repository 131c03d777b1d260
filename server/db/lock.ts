/**
 * Transaction-scoped advisory locks: how writes that a limit counts take turns (decisions 0452,
 * 0453, 0454, 0456). Two creates at once would otherwise both count the same room and both take it.
 */
import { sql } from 'drizzle-orm'
import type { Db } from './client.ts'

/**
 * Waits for, then holds until `tx` ends, the lock named `key` (`'<what>:<whose id>'`, for example
 * `'job-counts:org_1'`). Names hash to 32 bits, so two names may rarely share a lock: they then
 * only wait for each other, which is safe.
 */
export async function lockKey(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
}

/**
 * Takes `key`'s lock until `tx` ends, then counts what a limit bounds: throws `refusal(counted)`
 * when `limit` or more are already stored. Call it in the creating transaction, before the insert.
 */
export async function checkRoom(
  tx: Db,
  key: string,
  limit: number,
  count: () => Promise<number>,
  refusal: (counted: number) => Error,
): Promise<void> {
  await lockKey(tx, key)
  const counted = await count()
  if (counted >= limit) throw refusal(counted)
}
