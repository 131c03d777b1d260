/**
 * Text bound for Postgres. `text` and `jsonb` reject U+0000, and `jsonb` rejects a lone UTF-16
 * surrogate (half of an emoji, as a model's cut-off reply or a pasted string can hold). Either one
 * used to fail the whole write; here both become U+FFFD, so the rest is kept and a reader can see
 * something was there.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** `text` with NUL and lone surrogates replaced by U+FFFD (the same string when there were none). */
export function toPostgresText(text: string): string {
  return text.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATE, '\ufffd')
}

/** A JSON value for a `jsonb` column with every string (and object key) made storable. */
export function toPostgresJson<T>(value: T): T {
  if (typeof value === 'string') return toPostgresText(value) as T
  if (Array.isArray(value)) return value.map((v) => toPostgresJson(v)) as T
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [toPostgresText(k), toPostgresJson(v)]),
    ) as T
  }
  return value
}
