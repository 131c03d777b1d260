/**
 * gzip/brotli for HTML and JSON over 1 KiB: a jobs page shrinks about tenfold, which on a slow
 * link matters more than the CPU it costs (brotli at quality 4, the `compression` default).
 * Streams are left alone: a compressor holds bytes back until its buffer fills, which would stall
 * the agent's chat (server-sent events) until the reply is over.
 */
import compression from 'compression'
import type { Request, Response } from 'express'

export const COMPRESSION_THRESHOLD_BYTES = 1024

export function shouldCompress(req: Request, res: Response): boolean {
  const type = String(res.getHeader('content-type') ?? '')
  if (type.startsWith('text/event-stream')) return false
  return compression.filter(req, res)
}

export function compressResponses() {
  return compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: shouldCompress })
}
