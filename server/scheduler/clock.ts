/**
 * Time, as the scheduler sees it. Due-ness and leases are decided by the DATABASE clock
 * (`now()`), so instances with skewed clocks agree; timers are local. Tests inject a manual
 * clock (tests/support/clock.ts) that stands in for both.
 */
import { sql, type SQL } from 'drizzle-orm'

export interface Clock {
  /** SQL for "now" in due-ness and lease decisions: `now()` in production. */
  sqlNow(): SQL
  /** Calls `fn` after `ms`; returns a cancel function. */
  setTimer(fn: () => void, ms: number): () => void
}

/** The production clock: the database's `now()` and Node timers. */
export const databaseClock: Clock = {
  sqlNow: () => sql`now()`,
  setTimer(fn, ms) {
    const timer = setTimeout(fn, Math.max(0, ms))
    return () => clearTimeout(timer)
  },
}

/** Resolves after `ms` on `clock`, or early when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      cancel()
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const cancel = clock.setTimer(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}
