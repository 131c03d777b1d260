/**
 * Helpers that keep API route modules thin: run one server function, answer JSON,
 * and turn every failure into the one error shape.
 */
import { logger } from '../lib/logger.ts'
import { HttpError, toErrorBody } from '../lib/errors.ts'

export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  headers.set('cache-control', 'no-store')
  const body = JSON.stringify(data)
  // A known length lets the compressor skip small answers (it cannot tell from a stream).
  headers.set('content-length', String(Buffer.byteLength(body)))
  return new Response(body, { ...init, headers })
}

/** Maps any thrown value to a JSON error response; unknown errors are logged, never echoed. */
function errorResponse(err: unknown): Response {
  if (err instanceof Response) return err
  if (err instanceof HttpError) return json(toErrorBody(err), { status: err.status })
  logger.error({ err }, 'unhandled error in API route')
  return json({ error: { code: 'internal', message: 'Something went wrong on our side' } }, { status: 500 })
}

/** Runs an API handler and answers JSON, whatever happens. */
export async function api(handler: () => Promise<Response | unknown>): Promise<Response> {
  try {
    const result = await handler()
    return result instanceof Response ? result : json(result)
  } catch (err) {
    return errorResponse(err)
  }
}
