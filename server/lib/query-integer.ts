/**
 * Whole numbers read from a URL query (`limit`, `days`, `offset`, `before`). `z.coerce.number()`
 * reads far more than digits: `1e1`, `0x10`, `+5`, `%201` (a leading space), `1.0`, and an empty value as 0, so what a
 * proxy's rule, a log or a person reads in the URL was not the number the server used. Here only
 * plain decimal digits count; anything else is the field's 400.
 */
import { z } from 'zod'

const DIGITS = /^\d+$/

/**
 * An integer from `min` to `max` (unbounded above without `max`), given as plain decimal digits
 * (leading zeros allowed) or, from a caller inside the server such as an agent tool, as a number.
 * `message` is what any other value gets, out-of-range ones excepted ("must be at most 200").
 */
export function queryInteger({ min, max, message }: { min: number; max?: number; message?: string }) {
  const bad =
    message ??
    (max === undefined
      ? `must be a whole number of at least ${min}`
      : `must be a whole number from ${min} to ${max}`)
  const number = z
    .number({ error: bad })
    .int({ error: bad })
    .min(min, { error: `must be at least ${min}` })
    .max(max ?? Number.MAX_SAFE_INTEGER, { error: `must be at most ${max ?? Number.MAX_SAFE_INTEGER}` })
  // Any other text stays text, which the number schema refuses with `bad`.
  return z.preprocess(
    (value) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value),
    number,
  )
}
