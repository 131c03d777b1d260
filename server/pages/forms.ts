import { badFields, HttpError, type FieldProblem } from '../lib/errors.ts'
import { storableText, unstorableText } from '../lib/text.ts'

export type ActionResult<T = unknown> =
  | { ok: true; intent: string; data?: T }
  | {
      ok: false
      intent: string
      error: { message: string; field?: string; fields?: FieldProblem[]; status: number }
    }

/** A page form's text fields by name (a repeated one's last value; `all` gives every value). */
export type FormFields = Record<string, string>

/**
 * Reads a page form and runs one intent of the page's action on it (the form's `intent` field, or
 * `intent` for a page with a single action), reporting the outcome as data so the page can show
 * each error next to its field instead of an error page. Every key and value of the form is
 * checked first: one PostgreSQL cannot store (a NUL, an unpaired surrogate) would fail as a 500 at
 * the first query that holds it (an id's lookup), so the form is refused with the usual 400 naming
 * each bad field, and `work` never sees it.
 */
export async function runForm<T>(
  request: Request,
  work: (fields: FormFields, all: (key: string) => string[]) => Promise<T>,
  intent?: string,
): Promise<ActionResult<T>> {
  const form = await request.formData()
  const fields: FormFields = {}
  for (const [key, value] of form) if (typeof value === 'string') fields[key] = value
  const all = (key: string) => form.getAll(key).filter((v): v is string => typeof v === 'string')
  const named = intent ?? fields.intent ?? ''
  return runIntent(named, async () => {
    const problems = unstorableFields(form)
    if (problems.length) throw badFields(problems)
    return work(fields, all)
  })
}

/** One problem per form field whose name or a value PostgreSQL cannot store. */
function unstorableFields(form: FormData): FieldProblem[] {
  const problems = new Map<string, FieldProblem>()
  for (const [key, value] of form) {
    const keyReason = unstorableText(key)
    const reason = keyReason ? `its name ${keyReason}` : typeof value === 'string' && unstorableText(value)
    // A bad name is shown as it can be stored: the answer is text too.
    const field = keyReason ? storableText(key) || 'form' : key
    if (reason && !problems.has(field)) problems.set(field, { field, message: `${field}: ${reason}` })
  }
  return [...problems.values()]
}

/** Runs one intent and reports an HttpError as the page's `{ ok: false, error }` result. */
async function runIntent<T>(intent: string, work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    const data = await work()
    return { ok: true, intent, data }
  } catch (err) {
    if (err instanceof HttpError)
      return {
        ok: false,
        intent,
        error: {
          message: err.message,
          field: err.field,
          ...(err.fields?.length ? { fields: err.fields } : {}),
          status: err.status,
        },
      }
    throw err
  }
}
