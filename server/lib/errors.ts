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
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const badRequest = (message: string, field?: string) =>
  new HttpError(400, 'bad_request', message, field)
export const unauthorized = (message = 'Sign in first') => new HttpError(401, 'unauthorized', message)
export const forbidden = (message = 'You may not do that') => new HttpError(403, 'forbidden', message)
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message)
export const conflict = (message: string, field?: string) => new HttpError(409, 'conflict', message, field)
export const payloadTooLarge = (message: string) => new HttpError(413, 'payload_too_large', message)
export const internalError = () => new HttpError(500, 'internal', 'Something went wrong on our side')

/** True for a 404 HttpError ("not visible to you"); a database outage or a bug is never this. */
export const isNotFound = (err: unknown): err is HttpError => err instanceof HttpError && err.status === 404

export type ErrorBody = { error: { code: string; message: string; field?: string } }

export function toErrorBody(err: HttpError): ErrorBody {
  return { error: { code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}) } }
}
