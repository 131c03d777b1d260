/**
 * How a provider's refusal of a key is written down: on a stored key it paused (decision 0505) and
 * in the 400 of a save it refused (decision 0514), the same words.
 */

/** The most of the provider's words kept with a refusal. */
const REASON_MAX = 200

/** "<status>: <the provider's message>", without the key, in at most REASON_MAX characters. */
export function refusalReason(status: number, body: string, key: string): string {
  let said = ''
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } }
    if (typeof parsed.error?.message === 'string') said = parsed.error.message
  } catch {
    // Not JSON: the status alone says enough.
  }
  const reason = said ? `${status}: ${said}` : String(status)
  return reason.split(key).join('••••').slice(0, REASON_MAX)
}
