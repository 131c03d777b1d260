/**
 * The one way input is checked at the edge: a zod schema, and on failure a 400
 * that names every bad field at once so forms and agents can point at each.
 */
import type { z } from 'zod'
import { badFields, badRequest, type FieldProblem } from './errors.ts'
import { findUnstorableText } from './text.ts'

/**
 * Parses `data` with `schema` and returns the parsed output.
 *
 * @throws HttpError 400 `bad_request` naming every bad field: `field` is the first issue's path
 *   joined by `.` (for example `schedule` or `extra.owner`), `message` is human and prefixed by the
 *   field (`"schedule: hour: 25 is out of range (0–23)"`), and with more than one bad field
 *   `fields` lists each (one problem per field) and `message` joins them with `; `. Also 400,
 *   naming the path, for any string in the parsed value that PostgreSQL cannot store (U+0000 or
 *   an unpaired surrogate).
 */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = checkInput(schema, data)
  if (!result.ok) throw badFields(result.problems)
  return result.data
}

/**
 * {@link parseInput} without throwing: the parsed output, or every problem (one per field), so a
 * caller checking several parts of an input can report them all together.
 */
export function checkInput<S extends z.ZodType>(
  schema: S,
  data: unknown,
): { ok: true; data: z.output<S> } | { ok: false; problems: FieldProblem[] } {
  const result = schema.safeParse(data)
  if (result.success) {
    // Text PostgreSQL cannot store (NUL, lone surrogates) would fail later as a 500, perhaps
    // half-written; refuse it here, naming where it is.
    const unstorable = findUnstorableText(result.data)
    if (unstorable) {
      const field = unstorable.path.length ? unstorable.path.join('.') : undefined
      throw badRequest(field ? `${field}: ${unstorable.reason}` : `Input ${unstorable.reason}`, field)
    }
    return { ok: true, data: result.data }
  }
  const problems: FieldProblem[] = []
  const seen = new Set<string>()
  for (const issue of result.error.issues) {
    const { field, message } = describeIssue(issue)
    // One problem per field: the first is the one to fix first.
    if (seen.has(field ?? '')) continue
    seen.add(field ?? '')
    problems.push(field ? { field, message: `${field}: ${message}` } : { message })
  }
  // A problem of the input as a whole ("nothing to update") is noise beside a bad field, which
  // is usually its cause (an unknown key is not an update).
  const named = problems.filter((p) => p.field)
  if (named.length > 0) return { ok: false, problems: named }
  return { ok: false, problems: problems.length ? problems : [{ message: 'Invalid input' }] }
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
