/**
 * Hides secret values in anything shown back (command output, files read, search hits, what an MCP
 * server answers). Longest values first, so a secret that contains another is hidden whole.
 */
export const REDACTED = '••••'

/** Secrets shorter than this are refused at storage time: redacting them would shred all output. */
export const MIN_SECRET_LENGTH = 4

/** A secret value and what is shown in its place; a bare string is shown as {@link REDACTED}. */
export type Hidden = { value: string; shown: string }

export function makeRedactor(values: Iterable<string | Hidden>): (text: string) => string {
  const byValue = new Map<string, string>()
  for (const entry of values) {
    const { value, shown } = typeof entry === 'string' ? { value: entry, shown: REDACTED } : entry
    if (value.length > 0 && !byValue.has(value)) byValue.set(value, shown)
  }
  const secrets = [...byValue].sort(([a], [b]) => b.length - a.length)
  if (secrets.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const [secret, shown] of secrets) out = out.split(secret).join(shown)
    return out
  }
}

/** `data` (JSON-like: strings, arrays, plain objects, keys too) with every string redacted. */
export function redactData<T>(data: T, redact: (text: string) => string): T {
  if (typeof data === 'string') return redact(data) as T
  if (Array.isArray(data)) return data.map((item) => redactData(item, redact)) as T
  if (data && typeof data === 'object')
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [redact(key), redactData(value, redact)]),
    ) as T
  return data
}
