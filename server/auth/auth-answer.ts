/**
 * A better-auth endpoint's answer, as our server code calls the endpoints (with the caller's own
 * session, `asResponse: true`): a value, or its refusal as an HttpError with the same status and
 * words. Always as a Response because our before-hooks (auth.ts) refuse by returning one, in our
 * shape: called without `asResponse`, better-auth hands that Response back as if it were the answer
 * instead of throwing, and only its own refusals and our organisation hooks' (an APIError, which
 * carries no field) are thrown.
 */
import { HttpError, type ErrorBody } from '../lib/errors.ts'

/**
 * The answer's body, or the HttpError it stands for: our hooks answer in our shape
 * (`{ error: { code, message, field, fields } }`, kept as it was, field and all), better-auth in
 * its own (`{ code, message }`), whose 5xx (an input it could not take) becomes a 400.
 */
export async function authAnswer<T>(answer: Response | Promise<Response>): Promise<T> {
  const response = await answer
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (response.ok) return body as T
  const ours = (body as Partial<ErrorBody> | null)?.error
  if (ours?.message)
    throw new HttpError(response.status, ours.code ?? 'bad_request', ours.message, ours.field, ours.fields)
  const message = typeof body?.message === 'string' ? body.message : 'The request was refused'
  const status = response.status >= 500 ? 400 : response.status
  throw new HttpError(status, status === 403 ? 'forbidden' : 'bad_request', message)
}
