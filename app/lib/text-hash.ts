/**
 * A short fingerprint of a text (FNV-1a, 32 bit) to match an asynchronous answer to the text it
 * was about. Not for security: a collision only means a stale verdict shows a moment longer.
 */
export function hashText(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return `${text.length}-${(hash >>> 0).toString(36)}`
}
