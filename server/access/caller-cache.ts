/**
 * A short-lived cache of resolved callers, so a burst of API reads does not ask the database for
 * the session, the user and the membership on every request. Keyed by the session cookie's
 * value; bounded; entries live a few seconds.
 *
 * Staleness is bounded two ways. Any state-changing request on this instance (sign-out, switching
 * organisation, a role change or removal, a profile edit: all are POST/PUT/PATCH/DELETE) starts a
 * new generation when it begins and again when it ends, and entries from an older generation are
 * ignored, so nothing this instance writes is read stale. A change made through another instance
 * shows here within {@link CALLER_TTL_MS}.
 */
import { BoundedCache } from '../lib/lru.ts'
import { singleton } from '../lib/singleton.ts'

export const CALLER_TTL_MS = 5_000
const MAX_ENTRIES = 10_000

type Entry<T> = { generation: number; value: Promise<T> }
type State = { generation: number; cache: BoundedCache<string, Entry<unknown>> }

// One per process, kept across a development reload (see singleton()): the server's write
// middleware invalidates the same cache the routes read.
const state = () =>
  singleton<State>('caller-cache', () => ({
    generation: 0,
    cache: new BoundedCache(MAX_ENTRIES, CALLER_TTL_MS),
  }))

/** better-auth's session cookie (`__Secure-` prefixed over https), or null when there is none. */
export function sessionCookieOf(headers: Headers): string | null {
  const cookie = headers.get('cookie')
  if (!cookie) return null
  const match = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(cookie)
  return match ? match[1]! : null
}

/**
 * The caller for this session cookie from the cache, else from `resolve()` (then cached). Requests
 * without a session cookie are not cached. Concurrent requests for one session share one lookup.
 */
export function cachedCaller<T>(headers: Headers, resolve: () => Promise<T>): Promise<T> {
  const key = sessionCookieOf(headers)
  if (!key) return resolve()
  const { cache, generation } = state()
  const hit = cache.get(key) as Entry<T> | undefined
  if (hit && hit.generation === generation) return hit.value
  const value = resolve()
  cache.set(key, { generation, value })
  // A failed lookup is not remembered.
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key)
  })
  return value
}

/** Forgets every cached caller (a write that may change who someone is has begun or ended). */
export function invalidateCallers(): void {
  const current = state()
  current.generation += 1
  current.cache.clear()
}

/** How many callers are cached (for tests of the bound). */
export function cachedCallerCount(): number {
  return state().cache.size
}
