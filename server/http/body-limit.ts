/**
 * The one body limit in front of every route: pages' actions, the API and better-auth. It checks
 * `Content-Length`, then counts the streamed bytes, and answers 413 JSON as soon as either is over
 * the limit for the path's kind (server/lib/limits.ts), never holding more than that limit. A body
 * that fits is kept for React Router (server/http/react-router.ts), which reads it from here.
 */
import type { IncomingMessage } from 'node:http'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { BODY_LIMITS, type BodyKind } from '../lib/limits.ts'
import { payloadTooLarge, toErrorBody } from '../lib/errors.ts'

const bodies = new WeakMap<IncomingMessage, Buffer>()

/** The body the limiter read for this request (empty when it had none). */
export function bufferedBody(req: IncomingMessage): Buffer {
  return bodies.get(req) ?? Buffer.alloc(0)
}

/** Which limit applies to a path. */
export function bodyKindFor(path: string): BodyKind {
  if (!path.startsWith('/_agent-native/')) return 'pageForm'
  if (path.startsWith('/_agent-native/resources/')) return 'workspaceFile'
  if (path === '/_agent-native/agent/chat') return 'chat'
  if (path.startsWith('/_agent-native/harness/runs/')) return 'harness'
  return 'json'
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

export function limitBodies(): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req)) return next()
    const limit = BODY_LIMITS[bodyKindFor(req.path)]
    if (Number(req.headers['content-length']) > limit) return refuse(req, res, limit)
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      stop()
      chunks.length = 0
      refuse(req, res, limit)
    }
    const onEnd = () => {
      stop()
      bodies.set(req, Buffer.concat(chunks))
      next()
    }
    const onError = (err: Error) => {
      stop()
      next(err)
    }
    const stop = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  }
}

// Answering before a client has sent its whole body makes many clients (browsers included) see a
// reset instead of the answer, so a moderately oversize body is read on and dropped after the
// 413. Past this much, or this long, the upload is abusive: the server stops reading (TCP holds
// the sender back, nothing piles up here), gives the client a moment to read the answer, and cuts.
const MAX_DISCARD_BYTES = 16 * 1024 * 1024
const MAX_DISCARD_MS = 10_000
const LINGER_MS = 1_000

function refuse(req: ExpressRequest, res: ExpressResponse, limit: number) {
  const err = payloadTooLarge(
    `The body is over ${limit} bytes (${Math.round(limit / 1024)} KiB), the limit for ${req.path}`,
  )
  res.status(413).set('cache-control', 'no-store').json(toErrorBody(err))
  let dropped = 0
  let cutting = false
  const cut = () => {
    if (cutting) return
    cutting = true
    req.pause()
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref()
  }
  if (Number(req.headers['content-length']) > MAX_DISCARD_BYTES) return cut()
  const timer = setTimeout(cut, MAX_DISCARD_MS).unref()
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > MAX_DISCARD_BYTES) cut()
  })
  req.on('close', () => clearTimeout(timer))
  req.resume()
}
