/**
 * gzip/brotli for HTML and JSON over 1 KiB: a jobs page shrinks about tenfold, which on a slow
 * link matters more than the CPU it costs (brotli at quality 4, the `compression` default).
 * Streams are left alone: a compressor holds bytes back until its buffer fills, which would stall
 * the agent's chat (server-sent events) until the reply is over.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import compression from 'compression'
import type { Request, Response } from 'express'

export const COMPRESSION_THRESHOLD_BYTES = 1024
/** The `compression` middleware's brotli quality, for bodies compressed here in one call. */
const BROTLI_QUALITY = 4

/**
 * A whole body compressed in one synchronous call, as the `compression` middleware would for this
 * request (same filter, threshold and preference), with the headers set. A page or a JSON answer
 * is a few hundred KB at most: one call costs less than streaming it through a compressor chunk by
 * chunk (docs/decisions/0260-pages-are-answered-in-one-buffer.md).
 */
export function encodeBody(req: Request, res: Response, body: Buffer, quality = BROTLI_QUALITY): Buffer {
  if (body.length < COMPRESSION_THRESHOLD_BYTES || res.getHeader('content-encoding')) return body
  if (!shouldCompress(req, res)) return body
  res.vary('Accept-Encoding')
  const encoding = req.acceptsEncodings('br', 'gzip', 'identity')
  if (encoding !== 'br' && encoding !== 'gzip') return body
  res.setHeader('content-encoding', encoding)
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } })
    : gzipSync(body)
}

export function shouldCompress(req: Request, res: Response): boolean {
  const type = String(res.getHeader('content-type') ?? '')
  if (type.startsWith('text/event-stream')) return false
  return compression.filter(req, res)
}

export function compressResponses() {
  return compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: shouldCompress })
}
