/**
 * How often one person may have the server ask the provider about a key (decision 0514). A save
 * whose key the provider refuses stores nothing, so without a bound a member could make the server
 * send the provider 401s from its address as fast as they can save; decision 0505 bounds calls on
 * a stored key, and this bounds the checks. Past the bound a key is saved unchecked, as when the
 * provider does not answer: a bad one is then caught by its first call (0505). Kept per instance,
 * in memory: a bound on the rate, not an account.
 */

/** Checks one person may cause in {@link WINDOW_MS}: far more than anyone mistypes a key. */
export const CHECKS_PER_WINDOW = 10
const WINDOW_MS = 60_000

/** When each person's recent checks were made (only those within the window are kept). */
const recent = new Map<string, number[]>()

/** Counts a check for `userId` and says whether it may be made now. */
export function mayCheckKey(userId: string, now = Date.now()): boolean {
  const times = (recent.get(userId) ?? []).filter((t) => now - t < WINDOW_MS)
  const allowed = times.length < CHECKS_PER_WINDOW
  if (allowed) times.push(now)
  recent.set(userId, times)
  // Forget people who stopped, so the map holds only the last minute's.
  for (const [id, list] of recent) if (list.every((t) => now - t >= WINDOW_MS)) recent.delete(id)
  return allowed
}
