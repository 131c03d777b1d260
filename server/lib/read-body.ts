/**
 * Reading a request body that stops at its size limit while it streams in. Lives below the HTTP
 * layer because a domain serves requests of its own too: a harness run's endpoint is answered on
 * a Unix socket that no body limit of the HTTP layer stands in front of (harness/socket.ts).
 */
import { badRequest, payloadTooLarge } from './errors.ts'

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
