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
 * instance also remembers the clients it found over the limit (up to {@link MAX_LIMITED_CLIENTS}), so
 * it refuses them without a query. */
import { sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { rateLimit } from '../db/schema/index.ts'
import { clientKey } from '../lib/body-budget.ts'
import { newId } from '../lib/ids.ts'
import { RefusedUntil } from '../lib/refused-until.ts'

/** Refused tokens a client may present in a window: far more than a typo or a revoked token's retries. */
export const MAX_REFUSED_TOKENS = 20
// No longer than better-auth's longest window (60 s): it deletes rows whose last_request is older
// than that, which for these rows is a window that has ended.
const WINDOW_MS = 60_000

/**
 * Clients remembered as over the limit at once. A client is remembered only once 21 of its tokens
 * were refused in a minute, so filling this takes 10,000 addresses (IPv4, or IPv6 /64s) doing so
 * within one minute: 210,000 token lookups and counted refusals, 3,500 a second. Full, it holds
 * about 2.4 MB (240 bytes a client, measured). Past it, a client the memory drops (an ended window
 * first, else one at random) is as on an instance that had not met it yet (decision 0417): its next
 * token is looked up and counted, and the count, still over, refuses it and has it remembered
 * again. Each drop costs one lookup; chosen at random, a client holding more addresses than this
 * cannot aim its requests at the one dropped (server/lib/refused-until.ts).
 */
export const MAX_LIMITED_CLIENTS = 10_000

/** This instance's clients over the limit, by their row key (exported for its test). */
export const limitedClients = new RefusedUntil(MAX_LIMITED_CLIENTS)

const rowKey = (address: string) => `refused-token:${clientKey(address)}`

/**
 * Seconds until the client at `address` may present a token again, when this instance knows it is
 * over the limit; else null. No database: this is what answers a limited client.
 */
export function waitForTokens(address: string, now = Date.now()): number | null {
  return limitedClients.waitFor(rowKey(address), now)
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
  limitedClients.remember(key, waitMs)
  return Math.ceil(waitMs / 1000)
}
