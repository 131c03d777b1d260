/**
 * A limit on refused tokens per client address: each made-up personal access token (`cwp_`, at the
 * MCP endpoint, decision 0417) or machine token (`cwm_`, at the machine endpoint, decision 0431)
 * costs a hash and a database lookup, and without a limit a client could send them at full speed.
 * Both doors count against one window: a client refused {@link MAX_REFUSED_TOKENS} times in a
 * minute, at either, is answered 429 at both until its minute ends, before its token is hashed or
 * looked up.
 *
 * The count is kept in better-auth's `rate_limit` table, where the sign-in limit counts, so every
 * instance counts against the same window; one statement adds a refusal and reads the count. Each
 * instance also remembers the clients it found over the limit, so it refuses them without a query. */
import { sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { rateLimit } from '../db/schema/index.ts'
import { clientKey } from '../lib/body-budget.ts'
import { newId } from '../lib/ids.ts'

/** Refused tokens a client may present in a window: far more than a typo or a revoked token's retries. */
export const MAX_REFUSED_TOKENS = 20
// No longer than better-auth's longest window (60 s): it deletes rows whose last_request is older
// than that, which for these rows is a window that has ended.
const WINDOW_MS = 60_000

/** Clients over the limit, by their key, and when their window ends (ms since the epoch). */
const limited = new Map<string, number>()

const rowKey = (address: string) => `refused-token:${clientKey(address)}`

/**
 * Seconds until the client at `address` may present a token again, when this instance knows it is
 * over the limit; else null. No database: this is what answers a limited client.
 */
export function waitForTokens(address: string, now = Date.now()): number | null {
  const key = rowKey(address)
  const until = limited.get(key)
  if (until === undefined) return null
  if (until > now) return Math.ceil((until - now) / 1000)
  limited.delete(key)
  return null
}

/**
 * Counts one refused token for the client at `address`: the seconds it must wait when this one took
 * it over the limit (it is then refused here until its window ends), else null.
 */
export async function countRefusedToken(address: string, db: Db = getDb()): Promise<number | null> {
  const key = rowKey(address)
  const now = sql`(extract(epoch from now()) * 1000)::bigint`
  // In these rows `last_request` is when the window started (a fixed window, like a token's limit).
  const fresh = sql`${rateLimit.lastRequest} > ${now} - ${WINDOW_MS}`
  const [row] = await db
    .insert(rateLimit)
    .values({ id: newId('rl'), key, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${fresh} then ${rateLimit.count} + 1 else 1 end`,
        lastRequest: sql`case when ${fresh} then ${rateLimit.lastRequest} else ${now} end`,
      },
    })
    .returning({
      count: rateLimit.count,
      waitMs: sql<number>`(${rateLimit.lastRequest} + ${WINDOW_MS} - ${now})::int`,
    })
  if (!row || row.count <= MAX_REFUSED_TOKENS) return null
  const waitMs = Math.max(1000, Number(row.waitMs))
  forgetEnded()
  limited.set(key, Date.now() + waitMs)
  return Math.ceil(waitMs / 1000)
}

/** Drops the clients whose window has ended, so the map holds only those refused now. */
function forgetEnded(now = Date.now()) {
  for (const [key, until] of limited) if (until <= now) limited.delete(key)
}
