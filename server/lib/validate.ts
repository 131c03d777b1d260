/**
 * The one way input is checked at the edge: a zod schema, and on failure a 400
 * that names the first bad field so forms and agents can point at it.
 */
import type { z } from 'zod'
import { badRequest } from './errors.ts'
import { findUnstorableText } from './text.ts'

/**
 * Parses `data` with `schema` and returns the parsed output.
 *
 * @throws HttpError 400 `bad_request` whose `field` is the first issue's path joined by `.`
 *   (for example `schedule` or `extra.owner`) and whose message is human, prefixed by that field:
 *   `"schedule: hour: 25 is out of range (0–23)"`. Also 400, naming the path, for any string in
 *   the parsed value that PostgreSQL cannot store (U+0000 or an unpaired surrogate).
 */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data)
  if (result.success) {
    // Text PostgreSQL cannot store (NUL, lone surrogates) would fail later as a 500, perhaps
    // half-written; refuse it here, naming where it is.
    const unstorable = findUnstorableText(result.data)
    if (unstorable) {
      const field = unstorable.path.length ? unstorable.path.join('.') : undefined
      throw badRequest(field ? `${field}: ${unstorable.reason}` : `Input ${unstorable.reason}`, field)
    }
    return result.data
  }
  const issue = result.error.issues[0]
  if (!issue) throw badRequest('Invalid input')
  const { field, message } = describeIssue(issue)
  throw badRequest(field ? `${field}: ${message}` : message, field)
}

/** The field and reason of one zod issue, in the words a caller sees. */
function describeIssue(issue: z.core.$ZodIssue): { field: string | undefined; message: string } {
  const path = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    // zod reports unknown keys on the parent object; the caller wants to know which key.
    const [first, ...rest] = issue.keys
    const more = rest.length ? ` (and ${rest.length} more: ${rest.join(', ')})` : ''
    return { field: [...path, first].join('.'), message: `unknown field${more}` }
  }
  return { field: path.length ? path.join('.') : undefined, message: issue.message }
}
