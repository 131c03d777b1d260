/**
 * drizzle hands every query to postgres.js through `sql.unsafe`, which does not prepare: a query
 * with parameters then costs two round trips on every call (Parse + Describe, wait for the
 * parameter types, then Bind + Execute). Prepared, postgres.js keeps the statement on the
 * connection and the next call is one round trip. An uncached `/jobs` page runs three statements:
 * six socket writes and six wake-ups become three
 * (docs/decisions/0270-queries-are-prepared-on-their-connection.md).
 *
 * The statements are the app's own SQL, so their variety is small, but a list turned into
 * `in ($1, $2, …)` makes one text per length: past a cap, new texts run unprepared, so no
 * connection holds more than `limit` statements.
 */
import type { Sql } from 'postgres'

/** Distinct statements one process prepares; each connection holds at most this many. */
export const PREPARED_STATEMENT_LIMIT = 500

type UnsafeOptions = { prepare?: boolean } & Record<string, unknown>

/** The client, whose `unsafe` queries (and those of its transactions) are prepared up to the cap. */
export function preparingClient(sql: Sql, limit = PREPARED_STATEMENT_LIMIT): Sql {
  const known = new Set<string>()
  const shouldPrepare = (query: string) => {
    if (known.has(query)) return true
    if (known.size >= limit) return false
    known.add(query)
    return true
  }
  return wrap(sql, shouldPrepare)
}

function wrap(sql: Sql, shouldPrepare: (query: string) => boolean): Sql {
  // Transactions and savepoints hand their callback a client of their own: wrapped alike.
  const withWrappedClient = (method: (...args: unknown[]) => unknown) => {
    return (...args: unknown[]) => {
      const callback = args.pop() as (client: Sql) => unknown
      return method(...args, (client: Sql) => callback(wrap(client, shouldPrepare)))
    }
  }
  return new Proxy(sql, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key)
      if (typeof value !== 'function') return value
      if (key === 'unsafe') {
        return (query: string, params?: unknown[], options: UnsafeOptions = {}) =>
          target.unsafe(query, params as never, {
            ...options,
            prepare: options.prepare === true || shouldPrepare(query),
          })
      }
      const bound = (value as (...args: unknown[]) => unknown).bind(target)
      return key === 'begin' || key === 'savepoint' ? withWrappedClient(bound) : bound
    },
  })
}
