/**
 * Paged lists: `limit` (1–200, default 50) and an opaque `cursor` from the previous page's
 * `nextCursor`. A cursor holds the sort key of the last row it returned (keyset paging), so a
 * page costs the same however deep it is, and rows added meanwhile are not skipped or repeated.
 */
import { z } from 'zod'
import { badRequest } from './errors.ts'
import { unstorableInstant } from './instant.ts'
import { queryInteger } from './query-integer.ts'
import { unstorableText } from './text.ts'

export const PAGE_LIMIT_DEFAULT = 50
export const PAGE_LIMIT_MAX = 200

const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v)

export const PageLimit = queryInteger({ min: 1, max: PAGE_LIMIT_MAX })
  .default(PAGE_LIMIT_DEFAULT)
  .describe(`How many rows to return (1–${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT})`)

export const PageCursor = z
  .preprocess(
    emptyAsAbsent,
    z
      .string({ error: 'must be the nextCursor of the previous page' })
      .max(1_000, { error: 'is too long' })
      .optional(),
  )
  .describe('The previous page’s nextCursor, to read the page after it')

/**
 * `limit` and a numeric `cursor` (the id of the last entry of the previous page): for histories
 * read newest first by an increasing id, such as audit trails.
 */
export const IdPageQuery = z.object({
  limit: PageLimit,
  cursor: z
    .preprocess(
      emptyAsAbsent,
      z
        .string()
        .regex(/^\d{1,15}$/, { error: 'must be the nextCursor of the previous page' })
        .transform(Number)
        .optional(),
    )
    .describe('The previous page’s nextCursor'),
})

/** One page of a list: the rows, how many match in all, and the cursor of the next page (null at the end). */
export type Page<T> = { items: T[]; total: number; nextCursor: string | null }

/** A cursor for the row that ended a page: its sort key values, in order. */
export function encodeCursor(values: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url')
}

/**
 * The sort key values inside a cursor, checked against the expected shape (`kinds`, one per
 * value: a string, a number or a nullable ISO time PostgreSQL can hold). 400 `cursor` for
 * anything else.
 */
export function decodeCursor(
  cursor: string,
  kinds: readonly ('string' | 'number' | 'time?')[],
): (string | number | Date | null)[] {
  let values: unknown
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    values = undefined
  }
  const bad = () => badRequest('cursor: must be the nextCursor of the previous page, unchanged', 'cursor')
  if (!Array.isArray(values) || values.length !== kinds.length) throw bad()
  return values.map((value, i) => {
    const kind = kinds[i]
    // A forged cursor's values go into the page's query: one PostgreSQL cannot take is a 500 there.
    if (kind === 'string' && typeof value === 'string' && !unstorableText(value)) return value
    if (kind === 'number' && typeof value === 'number' && Number.isFinite(value)) return value
    if (kind === 'time?' && value === null) return null
    if (kind === 'time?' && typeof value === 'string') {
      const time = new Date(value)
      if (!unstorableInstant(time)) return time
    }
    throw bad()
  })
}
