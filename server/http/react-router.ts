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
 * A path that is not valid %-encoding gets a 400 before Vite or React Router try to decode it (they
 * would answer 500 or an HTML page): JSON under /_agent-native/, plain text elsewhere. So does a NUL
 * (%00) in the path or a query value: ids and query values reach SQL as text, which PostgreSQL
 * cannot hold with a NUL, and every route would otherwise answer 500 (found for chat threads'
 * `before`, skill and environment ids).
 */
export const rejectMalformedPaths: RequestHandler = (req, res, next) => {
  const refusal = badUrl(req.path, req.originalUrl)
  if (!refusal) return next()
  res.status(400).set('cache-control', 'no-store')
  if (!req.path.startsWith('/_agent-native/'))
    return void res.type('text/plain').send('Bad request: malformed URL')
  res.json(toErrorBody(badRequest(`${refusal.field}: ${refusal.message}`, refusal.field)))
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)'

function badUrl(path: string, originalUrl: string): { field: string; message: string } | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return { field: 'path', message: 'is not valid %-encoding' }
  }
  if (decoded.includes('\0')) return { field: 'path', message: NUL_MESSAGE }
  // A NUL reaches a URL only %-encoded (HTTP refuses it raw): most requests need no query parse.
  const query = originalUrl.indexOf('?')
  if (query < 0 || !originalUrl.includes('%00', query)) return null
  for (const [key, value] of new URLSearchParams(originalUrl.slice(query + 1))) {
    if (key.includes('\0') || value.includes('\0'))
      return { field: key.replaceAll('\0', '') || 'query', message: NUL_MESSAGE }
  }
  return null
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
