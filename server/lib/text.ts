/**
 * Text that PostgreSQL cannot store: U+0000 (NUL) and unpaired UTF-16 surrogates (which have no
 * UTF-8 form). People's input with these is refused with a 400 naming the field; text we must keep
 * whatever it holds (model output, transcripts) is cleaned instead.
 */

const NUL = '\u0000'
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g')
// C0 and C1 control characters, for one-line fields such as names.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// Characters that change the layout of the text around them: the Unicode line and paragraph
// separators and the bidirectional marks, embeddings, overrides and isolates.
const LAYOUT = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const LAYOUTS = new RegExp(LAYOUT.source, 'g')

/** Why `text` cannot be stored as PostgreSQL text, or null when it can. */
export function unstorableText(text: string): string | null {
  if (text.includes(NUL)) return 'must not contain the NUL character (U+0000)'
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it has an unpaired surrogate)'
  return null
}

/** Why `text` is not one line of plain text (no control characters, storable), or null. */
export function notPlainLine(text: string): string | null {
  if (CONTROL.test(text)) return 'must be one line of plain text (no control characters)'
  return unstorableText(text)
}

/**
 * Why `text` cannot be shown inside other text as it reads (one line of plain text, without line
 * separators or direction controls that would move what follows it), or null.
 */
export function notInlineText(text: string): string | null {
  const plain = notPlainLine(text)
  if (plain) return plain
  return LAYOUT.test(text)
    ? 'must be one line of plain text (no line separators or direction controls)'
    : null
}

/**
 * `text` as a quoted string inside other text: JSON's quoting (a `"` or `\` in it is escaped, so
 * the quotes end where the text does), with layout characters escaped as well (JSON leaves them).
 */
export function quoteText(text: string): string {
  return JSON.stringify(text).replace(LAYOUTS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** `text` with NULs dropped and lone surrogates replaced by U+FFFD, so PostgreSQL takes it. */
export function storableText(text: string): string {
  return text.replaceAll(NUL, '').replace(LONE_SURROGATES, '\ufffd')
}

/** Where a string PostgreSQL cannot store was found (a bad key: the object holding it), and why. */
export type UnstorableText = { path: string[]; reason: string }

/**
 * Values {@link findUnstorableText} looks at before it stops: far more than any body or file the
 * server takes holds (a 512 KiB chat body is at most about 260,000), so only a value sharing its
 * parts (a parser's aliases) reaches it, and the walk stays a fraction of a second, whatever it is
 * given.
 */
export const MAX_CHECKED_VALUES = 1_000_000
// Each finding copies its path; past this many the caller has enough to say, however deep they are.
const MAX_FINDINGS = 100

/**
 * Every string inside a value (keys included) that PostgreSQL cannot store, in the order found (the
 * first {@link MAX_FINDINGS}): each one's path (like `['extra', 'notes', '2']`) and reason. Empty
 * when there is none. Past {@link MAX_CHECKED_VALUES} values (a part reached twice counts twice) it
 * stops, with a last finding that the outermost field it was in is too large to check. One loop over
 * a stack with one path, so neither depth nor size costs more than the values themselves.
 */
export function findUnstorableText(value: unknown): UnstorableText[] {
  const found: UnstorableText[] = []
  const path: string[] = []
  const open: { node: object; keys: string[] | null; size: number; next: number }[] = []
  // Checks a string, or opens a list or mapping to be read; true when it opened one.
  const reach = (v: unknown): boolean => {
    if (typeof v === 'string') {
      const reason = unstorableText(v)
      if (reason) found.push({ path: [...path], reason })
      return false
    }
    if (v === null || typeof v !== 'object') return false
    const keys = Array.isArray(v) ? null : Object.keys(v)
    open.push({ node: v, keys, size: keys ? keys.length : (v as unknown[]).length, next: 0 })
    return true
  }
  let checked = 0
  reach(value)
  while (open.length > 0 && found.length < MAX_FINDINGS) {
    const top = open[open.length - 1]!
    if (top.next === top.size) {
      open.pop()
      path.pop() // the key that led to it (none for the outermost value)
      continue
    }
    const index = top.next++
    const key = top.keys ? top.keys[index]! : String(index)
    const keyReason = top.keys ? unstorableText(key) : null
    if (keyReason) found.push({ path: [...path], reason: `has a key that ${keyReason}` })
    if (++checked > MAX_CHECKED_VALUES) {
      const outermost = path.length > 0 ? path.slice(0, 1) : [key]
      const reason = `is too large to check (over ${MAX_CHECKED_VALUES.toLocaleString('en')} values)`
      return [...found, { path: outermost, reason }]
    }
    path.push(key)
    const child = top.keys ? (top.node as Record<string, unknown>)[key] : (top.node as unknown[])[index]
    if (!reach(child)) path.pop()
  }
  return found.slice(0, MAX_FINDINGS)
}

/**
 * The slug a person most likely meant by `text`, at most `max` characters: "Weekly Report!" →
 * `weekly-report`. Accents lose their marks, anything else that is not a letter or digit becomes
 * one dash; empty when `text` had no letter or digit.
 */
export function toSlug(text: string, max: number): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
  return trimTrailing(slug, '-')
}

/**
 * `text` without the run of `char` at its end, in one pass: `/\/+$/` starts again at every run of
 * slashes in the text, quadratic in a long one that is followed by something else.
 */
export function trimTrailing(text: string, char: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === char) end--
  return text.slice(0, end)
}

/**
 * `text` cut to its first `max` characters with a note of how long it was (`length`, when `text`
 * is already a head read from storage), or `text` itself when it fits. A cut never halves a
 * surrogate pair: its high half would be unstorable.
 */
export function clipText(text: string, max: number, length = text.length): string {
  if (length <= max) return text
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max
  return `${text.slice(0, end)}… (${length.toLocaleString('en')} characters in all)`
}

/** 512 B, 3.0 KiB, 12.5 MiB, 1.25 GiB: binary units, as quotas are set in mebibytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`
}
