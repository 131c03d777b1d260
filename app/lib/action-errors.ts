/**
 * Reading the `{ ok: false, error: { message, field } }` results page actions return
 * (server/pages/forms.ts runIntent), so each error shows next to the field it names.
 */
export type ActionError = { message: string; field?: string; status?: number }
export type ActionData =
  { ok: true; intent: string; data?: unknown } | { ok: false; intent: string; error: ActionError }

/** The error for `field` (or a sub-field of it), without the "field: " prefix the server adds. */
export function fieldError(result: ActionData | undefined | null, field: string): string | null {
  if (!result || result.ok || !result.error.field) return null
  const f = result.error.field
  if (f !== field && !f.startsWith(`${field}.`)) return null
  return stripFieldPrefix(result.error.message, f)
}

/** The error when it names none of `shownFields` (so it still appears somewhere: above the form). */
export function formLevelError(result: ActionData | undefined | null, shownFields: readonly string[]) {
  if (!result || result.ok) return null
  const f = result.error.field
  if (f && shownFields.some((s) => f === s || f.startsWith(`${s}.`))) return null
  return result.error
}

/** "schedule: hour: 25 is out of range" → "hour: 25 is out of range" (the label already says schedule). */
export function stripFieldPrefix(message: string, field: string): string {
  return message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message
}
