/**
 * What every path of a run's endpoint (model calls, the policy hook, the MCP relay) does with a
 * request from the sandbox before it means anything: read its body within bounds, parse it within
 * bounds, and refuse it in the shape the harness's Anthropic client understands.
 */
import { HttpError } from '../lib/errors.ts'
import { jsonPastBounds, type JsonBounds } from '../lib/json-shape.ts'
import { BODY_LIMITS } from '../lib/limits.ts'
import { readTextBody } from '../lib/read-body.ts'

/** An error the harness's Anthropic client understands (and does not retry: 4xx but 429). */
export function apiError(status: number, type: string, message: string): Response {
  return Response.json({ type: 'error', error: { type, message } }, { status })
}

/**
 * Largest request body read, on every path (a long conversation with files stays well under it).
 * Over the run's Unix socket no HTTP-layer limit stands in front: a command in the sandbox can
 * send a body that never ends, so it is counted while it streams in and cut past this.
 */
const MAX_BODY = BODY_LIMITS.harness

/** The body as text within {@link MAX_BODY}, or the answer refusing it (413 past it, 400 not UTF-8). */
export async function readBody(request: Request): Promise<string | Response> {
  try {
    return await readTextBody(request, MAX_BODY)
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return err.status === 413
      ? apiError(413, 'request_too_large', 'The request is too large')
      : apiError(400, 'invalid_request_error', err.message)
  }
}

/**
 * What a body may hold before it is parsed (server/lib/json-shape.ts). A long conversation with its
 * tools' schemas is tens of thousands of values a few dozen levels deep; 32 MiB of empty objects is
 * ten million, and parsing them held the loop every tenant shares for twenty seconds.
 */
const BODY_SHAPE: JsonBounds = { maxDepth: 128, maxValues: 250_000 }

/** `text` parsed as JSON, or the 400 saying why not (`what` names it: "The request body"). */
export function parseJson(text: string, what: string): unknown {
  const past = jsonPastBounds(text, BODY_SHAPE)
  if (past) return apiError(400, 'invalid_request_error', `${what} is refused unread: ${past}`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return apiError(400, 'invalid_request_error', `${what} is not JSON`)
  }
}
