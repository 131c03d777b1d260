/**
 * Transaction-scoped advisory locks: how writes that a limit counts take turns (decisions 0452,
 * 0453, 0454, 0456). Two creates at once would otherwise both count the same room and both take it.
 */
import { sql } from 'drizzle-orm'
import { inTurn } from '../lib/in-turn.ts'
import { getDbHandle, type Db } from './client.ts'

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

/**
 * Runs `work` holding `key`'s lock, for work whose writes are not ours to put in a transaction
 * (better-auth's: decisions 0488 and 0489 count before it writes, 0494). In this process the calls
 * take turns first (lib/in-turn.ts); on Postgres the one whose turn it is then holds the advisory
 * lock in a transaction on a connection beside the pool (`DbHandle.aside`), left open while `work`
 * runs on the pool, so instances take turns too and a pool of one is never held from `work`.
 * PGlite is one process and one connection: the turn is the lock.
 */
export function whileLocked<T>(key: string, work: () => Promise<T>): Promise<T> {
  return inTurn(key, () => {
    const { aside } = getDbHandle()
    if (!aside) return work()
    return aside(async (tx) => {
      await lockKey(tx, key)
      return work()
    })
  })
}
