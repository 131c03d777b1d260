/**
 * Reading the `{ ok: false, error: { message, field } }` results page actions return
 * (server/pages/forms.ts runForm), so each error shows next to the field it names.
 */
export type ActionError = {
  message: string
  field?: string
  /** Every bad field when there were several (server/lib/errors.ts badFields); `message` joins them. */
  fields?: { field?: string; message: string }[]
  status?: number
}
export type ActionData =
  { ok: true; intent: string; data?: unknown } | { ok: false; intent: string; error: ActionError }

/** Each problem of an error: the `fields` list when the server sent several, else the one error. */
function problemsOf(error: ActionError): { field?: string; message: string }[] {
  return error.fields?.length ? error.fields : [error]
}

const names = (f: string | undefined, field: string) => !!f && (f === field || f.startsWith(`${field}.`))

/** The error for `field` (or a sub-field of it), without the "field: " prefix the server adds. */
export function fieldError(result: ActionData | undefined | null, field: string): string | null {
  if (!result || result.ok) return null
  const problem = problemsOf(result.error).find((p) => names(p.field, field))
  return problem ? stripFieldPrefix(problem.message, problem.field!) : null
}

/**
 * The problems that name none of `shownFields` (so they still appear somewhere: above the form),
 * as one error; null when every problem is shown next to its field.
 */
export function formLevelError(
  result: ActionData | undefined | null,
  shownFields: readonly string[],
): ActionError | null {
  if (!result || result.ok) return null
  const all = problemsOf(result.error)
  const rest = all.filter((p) => !shownFields.some((s) => names(p.field, s)))
  if (rest.length === 0) return null
  if (rest.length === all.length) return result.error
  return { ...rest[0]!, message: rest.map((p) => p.message).join('; '), status: result.error.status }
}

/** "schedule: hour: 25 is out of range" → "hour: 25 is out of range" (the label already says schedule). */
export function stripFieldPrefix(message: string, field: string): string {
  return message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message
}
