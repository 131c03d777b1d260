import { HttpError, type FieldProblem } from '../lib/errors.ts'

export type ActionResult<T = unknown> =
  | { ok: true; intent: string; data?: T }
  | {
      ok: false
      intent: string
      error: { message: string; field?: string; fields?: FieldProblem[]; status: number }
    }

/**
 * Runs one intent of a page action and reports the outcome as data, so the page
 * can show each error next to its field instead of an error page.
 */
export async function runIntent<T>(intent: string, work: () => Promise<T>): Promise<ActionResult<T>> {
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

/** A form as a plain object of strings (the zod schema decides what is valid). */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const form = await request.formData()
  const out: Record<string, string> = {}
  for (const [key, value] of form) if (typeof value === 'string') out[key] = value
  return out
}
