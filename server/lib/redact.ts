/**
 * Hides secret values in anything shown back (command output, files read, search hits, what an MCP
 * server answers). At each position the longest value starting there is hidden, leftmost first, so
 * a secret that contains another is hidden whole; a text streamed in pieces is hidden the same way
 * as it passes (redact-stream.ts).
 */
import { HiddenMatcher, type StreamRedactor } from './redact-stream.ts'

export const REDACTED = '••••'

/** Secrets shorter than this are refused at storage time: redacting them would shred all output. */
export const MIN_SECRET_LENGTH = 4

/** A secret value and what is shown in its place; a bare string is shown as {@link REDACTED}. */
export type Hidden = { value: string; shown: string }

/**
 * `value` and, when it differs, how it reads inside a JSON string (a newline as `\n`, a quote as
 * `\"`): text redacted as JSON (a model call's body, a tool result's JSON) holds only the second,
 * so a private key or a service account's JSON key printed by a command passed whole.
 */
export function withJsonForm(value: string): string[] {
  const written = JSON.stringify(value).slice(1, -1)
  return written === value ? [value] : [value, written]
}

/** The values compiled once, the first naming of a value winning; null when there are none. */
function matcherOf(values: Iterable<string | Hidden>): HiddenMatcher | null {
  const byValue = new Map<string, string>()
  for (const entry of values) {
    const { value, shown } = typeof entry === 'string' ? { value: entry, shown: REDACTED } : entry
    if (value.length > 0 && !byValue.has(value)) byValue.set(value, shown)
  }
  if (byValue.size === 0) return null
  return new HiddenMatcher([...byValue].map(([value, shown]) => ({ value, shown })))
}

export function makeRedactor(values: Iterable<string | Hidden>): (text: string) => string {
  const matcher = matcherOf(values)
  return matcher ? (text) => matcher.redact(text) : (text) => text
}

/**
 * For texts that arrive in pieces (a streamed answer): each call starts one text's
 * {@link StreamRedactor}, whose output joined is what {@link makeRedactor} gives for the whole.
 */
export function makeStreamRedactor(values: Iterable<string | Hidden>): () => StreamRedactor {
  const matcher = matcherOf(values)
  return matcher ? () => matcher.stream() : () => ({ push: (text) => text, end: () => '', held: () => 0 })
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
