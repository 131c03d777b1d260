/**
 * React Router behind express, as `@react-router/express` does it, with one difference: the body
 * comes from the limiter (server/http/body-limit.ts) instead of the socket, so nothing downstream
 * can read past the limit. A malformed URL never gets here (bad-urls.ts).
 */
import { writeReadableStreamToWritable } from '@react-router/node'
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { createRequestHandler as createRouterHandler, type ServerBuild } from 'react-router'
import { bufferedBody } from './body-limit.ts'
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
