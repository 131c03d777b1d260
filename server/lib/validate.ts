/**
 * The one way input is checked at the edge: a zod schema, and on failure a 400
 * that names every bad field at once so forms and agents can point at each.
 */
import type { z } from 'zod'
import { badFields, type FieldProblem } from './errors.ts'
import { findUnstorableText } from './text.ts'

/**
 * Parses `data` with `schema` and returns the parsed output.
 *
 * @throws HttpError 400 `bad_request` naming every bad field: `field` is the first issue's path
 *   joined by `.` (for example `schedule` or `extra.owner`), `message` is human and prefixed by the
 *   field (`"schedule: hour: 25 is out of range (0–23)"`), and with more than one bad field
 *   `fields` lists each (one problem per field) and `message` joins them with `; `. Any string in
 *   the input that PostgreSQL cannot store (U+0000 or an unpaired surrogate) is one of them,
 *   named by its path, whether or not the rest of the input passes the schema.
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
  // Text PostgreSQL cannot store (NUL, lone surrogates) would fail later as a 500, perhaps
  // half-written. It is looked for in the input as given, so it is named beside the schema's
  // problems rather than after they are fixed.
  const unstorable = unstorableProblems(data)
  const result = schema.safeParse(data)
  if (result.success) {
    // A transform can make text the input did not hold (JSON parsed from a string).
    const problems = unstorable.length ? unstorable : unstorableProblems(result.data)
    return problems.length ? { ok: false, problems } : { ok: true, data: result.data }
  }
  const problems = onePerField([...result.error.issues.map(describeIssue), ...unstorable])
  // A problem of the input as a whole ("nothing to update") is noise beside a bad field, which
  // is usually its cause (an unknown key is not an update).
  const named = problems.filter((p) => p.field)
  if (named.length > 0) return { ok: false, problems: named }
  return { ok: false, problems: problems.length ? problems : [{ message: 'Invalid input' }] }
}

/**
 * Every string in `value` (keys included) PostgreSQL cannot store, as problems naming its path
 * (one per path).
 */
export function unstorableProblems(value: unknown): FieldProblem[] {
  const problems = findUnstorableText(value).map(({ path, reason }) => {
    const field = path.join('.')
    return field ? { field, message: `${field}: ${reason}` } : { message: `Input ${reason}` }
  })
  return onePerField(problems)
}

/** The first problem of each field: the one to fix first. */
function onePerField(problems: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>()
  return problems.filter((p) => {
    const field = p.field ?? ''
    if (seen.has(field)) return false
    seen.add(field)
    return true
  })
}

/** One zod issue as a problem, in the words a caller sees (prefixed by its field). */
function describeIssue(issue: z.core.$ZodIssue): FieldProblem {
  const path = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    // zod reports unknown keys on the parent object; the caller wants to know which key.
    const [first, ...rest] = issue.keys
    const more = rest.length ? ` (and ${rest.length} more: ${rest.join(', ')})` : ''
    const field = [...path, first].join('.')
    return { field, message: `${field}: unknown field${more}` }
  }
  const field = path.length ? path.join('.') : undefined
  return field ? { field, message: `${field}: ${issue.message}` } : { message: issue.message }
}
