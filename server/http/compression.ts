/**
 * gzip/brotli for HTML and JSON over 1 KiB: a jobs page shrinks about tenfold, which on a slow
 * link matters more than the CPU it costs. Streams are left alone: a compressor holds bytes back
 * until its buffer fills, which would stall the agent's chat (server-sent events) until the reply
 * is over.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import compression from 'compression'
import type { Request, Response } from 'express'

export const COMPRESSION_THRESHOLD_BYTES = 1024
/**
 * Brotli's quality for pages and JSON compressed here in one call. Quality 1 compresses a 50-row
 * jobs page (200 KB) 12.5-fold in 0.2 ms of CPU; the `compression` middleware's quality 4 gets
 * 14.6-fold for 0.9 ms, a tenth of an uncached page's whole CPU
 * (docs/decisions/0264-the-uncached-pages-render-less.md). Still smaller than gzip's default.
 */
const BROTLI_QUALITY = 1

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
  const encoding = negotiateEncoding(req.headers['accept-encoding'])
  if (!encoding) return body
  res.setHeader('content-encoding', encoding)
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } })
    : gzipSync(body)
}

/**
 * The encoding for an `Accept-Encoding` header as the `compression` middleware negotiates it: the
 * client's q-values decide, and at equal quality brotli comes before gzip whatever order they are
 * listed in. Browsers send `gzip, deflate, br, zstd`, for which express's `acceptsEncodings('br',
 * 'gzip')` answers gzip (by the client's order): three to five times the CPU of brotli at quality
 * 1 for a larger body. Null: neither (or identity preferred).
 */
export function negotiateEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null
  const quality = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    const value = q === undefined ? 1 : Number(q.slice(2))
    if (name) quality.set(name, Number.isFinite(value) ? value : 0)
  }
  const of = (coding: string) => quality.get(coding) ?? quality.get('*') ?? 0
  const [br, gzip] = [of('br'), of('gzip')]
  if (Math.max(br, gzip) <= 0 || (quality.get('identity') ?? 0) > Math.max(br, gzip)) return null
  return br >= gzip ? 'br' : 'gzip'
}

export function shouldCompress(req: Request, res: Response): boolean {
  const type = String(res.getHeader('content-type') ?? '')
  if (type.startsWith('text/event-stream')) return false
  return compression.filter(req, res)
}

export function compressResponses() {
  return compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: shouldCompress })
}
