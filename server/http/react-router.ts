/**
 * React Router behind express, as `@react-router/express` does it, with two differences: the body
 * comes from the limiter (server/http/body-limit.ts) instead of the socket, so nothing downstream
 * can read past the limit; and a path that is not valid %-encoding is a 400, not a crash.
 */
import { writeReadableStreamToWritable } from '@react-router/node'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { createRequestHandler as createRouterHandler, type ServerBuild } from 'react-router'
import { bufferedBody } from './body-limit.ts'
import { badRequest, toErrorBody } from '../lib/errors.ts'
import { encodeBody } from './compression.ts'
import type { PageCache } from './page-cache.ts'

export function reactRouterHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: 'production' | 'development',
  pageCache?: PageCache,
): RequestHandler {
  const handle = createRouterHandler(build, mode)
  return async (req, res, next) => {
    try {
      const render = () => handle(toFetchRequest(req, res))
      const response = pageCache ? await pageCache.handle(req, res, render) : await render()
      if (response) await send(req, res, response)
    } catch (error) {
      next(error)
    }
  }
}

/**
 * A path that is not valid %-encoding, or holds a NUL, gets a 400 before Vite or React Router try
 * to decode it (they would answer 500 or an HTML page): JSON under /_agent-native/, plain text
 * elsewhere.
 */
export const rejectMalformedPaths: RequestHandler = (req, res, next) => {
  let why: string | null
  try {
    // A NUL (%00) would reach an id lookup and fail there as a 500: no path or id holds one.
    why = decodeURIComponent(req.path).includes('\u0000') ? 'must not contain %00 (NUL)' : null
  } catch {
    why = 'is not valid %-encoding'
  }
  if (!why) return next()
  res.status(400).set('cache-control', 'no-store')
  if (!req.path.startsWith('/_agent-native/'))
    return void res.type('text/plain').send('Bad request: malformed URL')
  res.json(toErrorBody(badRequest(`path: ${why}`, 'path')))
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  // As the stock adapter: host and protocol follow the trust-proxy setting, and a Host header
  // with URL syntax in it cannot redirect the URL elsewhere.
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || 'localhost'
  const port = Number.parseInt((req.host ?? '').split(':')[1] ?? '', 10)
  const url = new URL(
    `${req.protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ''}${req.originalUrl}`,
  )
  const controller = new AbortController()
  let finished = false
  res.on('finish', () => (finished = true))
  res.on('close', () => {
    if (!finished) controller.abort()
  })
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v)
    else if (value !== undefined) headers.set(key, value)
  }
  const init: RequestInit = { method: req.method, headers, signal: controller.signal }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const body = bufferedBody(req)
    init.body = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength)
  }
  return new Request(url.href, init)
}

/** Answers read whole and sent in one write (pages, JSON); anything else is streamed. */
const BUFFERED = /^(?:text\/html|application\/json)/i

async function send(req: ExpressRequest, res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel()
    return
  }
  res.statusMessage = response.statusText
  res.status(response.status)
  // A route's header replaces the server-wide default (helmet's) rather than doubling it.
  for (const [key, value] of response.headers.entries()) {
    if (key === 'set-cookie') res.append(key, value)
    else res.setHeader(key, value)
  }
  const type = response.headers.get('content-type') ?? ''
  if (/text\/event-stream/i.test(type)) res.flushHeaders()
  if (!response.body) return void res.end()
  if (BUFFERED.test(type) && !response.headers.has('content-encoding')) {
    const body = encodeBody(req, res, Buffer.from(await response.arrayBuffer()))
    res.setHeader('content-length', body.length)
    return void res.end(body)
  }
  try {
    await writeReadableStreamToWritable(response.body, res)
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error
  }
}
