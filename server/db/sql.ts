/**
 * The one raw-SQL runner ({@link queryRows}) and small helpers for hand-written statements. Typed
 * queries go through drizzle; raw SQL goes through here, whichever driver is underneath.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from './client.ts'

/** Raw rows from `db.execute`, whichever driver (postgres.js answers an array, PGlite `{ rows }`). */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}

/** Runs `fn` in a transaction; the transaction is typed as a Db so stores accept it. */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db))
}

/** `now + ms` as SQL. */
export const plusMs = (now: SQL, ms: number) => sql`(${now} + ${Math.round(ms)} * interval '1 millisecond')`

/** A timestamp column from a raw row: drizzle's postgres.js driver leaves them as strings. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  return value instanceof Date ? value : new Date(String(value))
}

/** `(v1, v2, …)` for an IN clause; callers never pass an empty list. */
export const inList = (values: readonly string[]) =>
  sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`
