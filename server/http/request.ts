/**
 * HTTP details of the API that do not belong in a route module: versions in If-Match/ETag
 * headers, JSON 405s, and reading a body (text or JSON) that stops at its size limit.
 */
import { HttpError, badRequest, payloadTooLarge, toErrorBody } from '../lib/errors.ts'
import { json } from './respond.ts'

/**
 * The version in an `If-Match` header, or undefined when there is none (or it is `*`). Accepts
 * `3`, `"3"` and `W/"3"`, so clients may echo the ETag back as they received it.
 *
 * @throws HttpError 400 `If-Match` for anything else.
 */
export function readIfMatch(request: Request): number | undefined {
  const header = request.headers.get('if-match')?.trim()
  if (!header || header === '*') return undefined
  // A job read's ETag is "<version>.<digest>" (http/conditional.ts): the version is what counts.
  const match = /^(?:W\/)?(?:"(\d{1,9})(?:\.[\w-]{1,40})?"|(\d{1,9}))$/.exec(header)
  if (!match) throw badRequest('If-Match: must be the version you last read, e.g. "3"', 'If-Match')
  return Number(match[1] ?? match[2])
}

/** Headers carrying a version as a strong ETag. */
export function versionHeaders(version: number): HeadersInit {
  return { etag: `"${version}"` }
}

/** A JSON 405 naming the methods this path takes. */
export function methodNotAllowed(request: Request, allowed: string[]): Response {
  const err = new HttpError(
    405,
    'method_not_allowed',
    `${request.method} is not allowed here; use ${allowed.join(', ')}`,
  )
  return json(toErrorBody(err), { status: 405, headers: { allow: allowed.join(', ') } })
}

/**
 * Reads a request body as UTF-8 text, refusing it past `maxBytes` with a 413 without keeping more
 * than that in memory. Invalid UTF-8 is a 400.
 */
export async function readTextBody(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    await discardRest(reader)
    throw tooLarge(maxBytes)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await discardRest(reader)
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    throw badRequest('The body must be UTF-8 text', 'body')
  }
}

/**
 * Reads a JSON object body through {@link readTextBody} (so an oversize body is refused while it
 * streams in, never buffered whole): 413 past `maxBytes`, 400 for anything but a JSON object.
 */
export async function readJsonBody(
  request: Request,
  maxBytes = 256 * 1024,
): Promise<Record<string, unknown>> {
  const text = await readTextBody(request, maxBytes)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw badRequest('Body must be valid JSON', 'body')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Body must be a JSON object', 'body')
  }
  return body as Record<string, unknown>
}

// Answering before the client has sent its whole body breaks keep-alive connections (the next
// request on the socket gets a reset), so a moderately oversize body is read and dropped. Past
// this, the upload is abusive and the connection is cut.
const MAX_DISCARD_BYTES = 16 * 1024 * 1024

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let dropped = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    dropped += value.byteLength
    if (dropped > MAX_DISCARD_BYTES) return reader.cancel()
  }
}

const tooLarge = (maxBytes: number) =>
  payloadTooLarge(`The body is over ${maxBytes} bytes (${Math.round(maxBytes / 1024)} KiB), the limit here`)
