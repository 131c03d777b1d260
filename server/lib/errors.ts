/**
 * The one error type the server answers with. Every failure a caller can cause
 * becomes an HttpError; anything else is logged and answered with a generic 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Every bad field, when the input had more than one problem (the first is `field`). */
    readonly fields?: FieldProblem[],
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/**
 * One problem of an input: the bad field's path (`schedule`, `extra.owner`; absent for the input
 * as a whole) and the human reason, prefixed by the field.
 */
export type FieldProblem = { field?: string; message: string }

export const badRequest = (message: string, field?: string) =>
  new HttpError(400, 'bad_request', message, field)

/**
 * A 400 naming every bad field at once: `field` is the first, `message` joins them all
 * ("name: …; schedule: …") and `fields` lists each with its own message.
 */
export function badFields(problems: FieldProblem[]): HttpError {
  if (problems.length === 1) return badRequest(problems[0]!.message, problems[0]!.field)
  const message = problems.map((p) => p.message).join('; ')
  return new HttpError(400, 'bad_request', message, problems[0]?.field, problems)
}
export const unauthorized = (message = 'Sign in first') => new HttpError(401, 'unauthorized', message)
export const forbidden = (message = 'You may not do that') => new HttpError(403, 'forbidden', message)
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message)
export const conflict = (message: string, field?: string) => new HttpError(409, 'conflict', message, field)
/** A limit on what an organisation or person may store is reached (decisions 0452–0461). */
export const quotaExceeded = (message: string, field?: string) =>
  new HttpError(403, 'quota_exceeded', message, field)
export const payloadTooLarge = (message: string) => new HttpError(413, 'payload_too_large', message)
export const internalError = () => new HttpError(500, 'internal', 'Something went wrong on our side')

/** True for a 404 HttpError ("not visible to you"); a database outage or a bug is never this. */
export const isNotFound = (err: unknown): err is HttpError => err instanceof HttpError && err.status === 404

export type ErrorBody = {
  error: { code: string; message: string; field?: string; fields?: FieldProblem[] }
}

export function toErrorBody(err: HttpError): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.field ? { field: err.field } : {}),
      ...(err.fields?.length ? { fields: err.fields } : {}),
    },
  }
}
