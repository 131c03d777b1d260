/**
 * Rendered HTML of the busiest pages (the jobs list, a job's page), reused while nothing they show
 * has changed. React's server rendering of a 50-row table is most of a page request's CPU; a
 * person polling their jobs, or a team looking at the same list, asks for the same bytes again.
 *
 * Freshness: an entry is keyed by the request's cookies and URL (so by session: what one person
 * sees is never served to another) and tagged with two counters read as the request arrives, the
 * organisation's and the person's (table `cache_versions`). Database triggers move them, at
 * commit, on every write that can change what that organisation's or person's pages show (jobs,
 * run states, members, settings, notifications, …), and on nothing else: lease renewals,
 * heartbeats and other organisations' writes leave an entry valid
 * (docs/decisions/0263-page-cache-versions-per-organisation-and-person.md). The counters are read
 * before the render, so a write that commits during it makes the entry stale at once, never the
 * reverse. What a page shows that is not in the database (the clock: "scheduler silent for 3 min")
 * is bounded by {@link PAGE_CACHE_TTL_MS}.
 *
 * The CSP nonce: a cached document keeps the nonce it was rendered with, and the response's CSP
 * header is rewritten to name it. Nonces are per response so that a nonce seen in one document
 * cannot unlock markup injected into another; a cached document is byte-identical to the one that
 * carried the nonce first, so it contains no markup that document did not (docs/decisions/0095-a-cached-page-keeps-its-csp-nonce.md).
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import { getCaller } from '../auth/caller.ts'
import { BoundedCache } from '../lib/lru.ts'
import { logger } from '../lib/logger.ts'
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts'

export const PAGE_CACHE_TTL_MS = 5_000
/** A 50-row jobs page is ~240 KB of HTML (+ ~15 KB compressed): 48 of them stay under ~13 MB. */
const MAX_ENTRIES = 48
/**
 * The reads worth it: the pages /jobs, /jobs/new and /jobs/:id (not their `.data` twins or
 * sub-pages), and their API twins GET /_agent-native/jobs and /_agent-native/jobs/:id (JSON).
 */
const CACHED_PATH = /^(?:\/_agent-native)?\/jobs(?:\/[\w-]+)?\/?$/
const CACHED_TYPE = /^(?:text\/html|application\/json)/

type Entry = {
  version: string
  nonce: string
  status: number
  headers: [string, string][]
  html: Buffer
  encoded: Partial<Record<'br' | 'gzip', Buffer>>
}

export type PageCache = {
  /**
   * Answers `req` from the cache, or renders it through `render` and keeps the result when it is a
   * plain 200 page. Returns the rendered Response when it is not cacheable (the caller sends it),
   * else undefined (answered).
   */
  handle(
    req: ExpressRequest,
    res: ExpressResponse,
    render: () => Promise<Response>,
  ): Promise<Response | undefined>
}

export function createPageCache(db: Db): PageCache {
  const cache = new BoundedCache<string, Entry>(MAX_ENTRIES, PAGE_CACHE_TTL_MS)
  const rendering = new Map<string, Promise<Entry | null>>()
  let disabled = false
  /** The organisation's and the person's counters, as one tag (a scope never written reads 0). */
  const readVersion = async (orgId: string, userId: string) => {
    const org = `org:${orgId}`
    const person = `user:${userId}`
    const rows = await queryRows<{ scope: string; version: string }>(
      db,
      sql`select scope, version::text as version from cache_versions where scope in (${org}, ${person})`,
    )
    const of = (scope: string) => rows.find((r) => r.scope === scope)?.version ?? '0'
    return `${orgId}.${of(org)}.${of(person)}`
  }

  async function renderEntry(res: ExpressResponse, version: string, render: () => Promise<Response>) {
    const response = await render()
    const type = response.headers.get('content-type') ?? ''
    if (response.status !== 200 || !CACHED_TYPE.test(type) || response.headers.has('set-cookie')) {
      return { response, entry: null }
    }
    const html = Buffer.from(await response.arrayBuffer())
    const headers = [...response.headers.entries()].filter(
      ([key]) => key !== 'content-length' && key !== 'content-encoding',
    )
    const entry: Entry = { version, nonce: res.locals.cspNonce, status: 200, headers, html, encoded: {} }
    return { response: null, entry }
  }

  return {
    async handle(req, res, render) {
      const cookie = req.headers.cookie
      if (disabled || req.method !== 'GET' || !cookie || !CACHED_PATH.test(req.path)) return render()
      // A bearer caller is not named by the cookie; a conditional request is the route's (304).
      if (req.headers.authorization || req.headers['if-none-match']) return render()
      // The caller (cached for a few seconds per session) says whose counters tag the page.
      const caller = await getCaller(new Request('http://page-cache/', { headers: { cookie } }))
      if (!caller) return render()
      let version: string
      try {
        version = await readVersion(caller.orgId, caller.userId)
      } catch (err) {
        // A database without the versions table (a replica that lags its migrations): render every time.
        disabled = true
        logger.warn({ err }, 'page cache disabled: the cache versions cannot be read')
        return render()
      }
      const key = `${req.originalUrl}\n${cookie}`
      const hit = cache.get(key)
      if (hit?.version === version) return void send(req, res, hit)
      // Requests for the same page arriving while it renders share that render.
      const flight = `${version}\n${key}`
      const shared = rendering.get(flight)
      if (shared) {
        const entry = await shared
        return entry ? void send(req, res, entry) : render()
      }
      const own = renderEntry(res, version, render)
      const settled = own.then(({ entry }) => entry).catch(() => null)
      rendering.set(flight, settled)
      try {
        const { response, entry } = await own
        if (!entry) return response!
        cache.set(key, entry)
        send(req, res, entry)
      } finally {
        rendering.delete(flight)
      }
    },
  }
}

function send(req: ExpressRequest, res: ExpressResponse, entry: Entry) {
  if (res.destroyed || res.writableEnded) return
  res.status(entry.status)
  for (const [key, value] of entry.headers) res.setHeader(key, value)
  const fresh = res.locals.cspNonce as string | undefined
  const csp = res.getHeader('content-security-policy')
  if (fresh && fresh !== entry.nonce && typeof csp === 'string') {
    res.setHeader('content-security-policy', csp.replace(`'nonce-${fresh}'`, `'nonce-${entry.nonce}'`))
    res.locals.cspNonce = entry.nonce
  }
  res.vary('Accept-Encoding')
  const encoding =
    entry.html.length >= COMPRESSION_THRESHOLD_BYTES ? req.acceptsEncodings('br', 'gzip', 'identity') : false
  let body = entry.html
  if (encoding === 'br' || encoding === 'gzip') {
    // Compressed once per entry; the compression middleware leaves an encoded body alone.
    body = entry.encoded[encoding] ??=
      encoding === 'br'
        ? brotliCompressSync(entry.html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
        : gzipSync(entry.html)
    res.setHeader('content-encoding', encoding)
  }
  res.setHeader('content-length', body.length)
  res.end(body)
}

/**
 * Concurrent callers share one call, but never one that started before they asked (a write that
 * committed just before a request must be seen by it): a caller arriving while a call is in flight
 * waits for it to finish and shares the next one.
 */
export function coalesced<T>(call: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined
  let next: Promise<T> | undefined
  const start = () => {
    const p = call()
    inFlight = p
    const clear = () => {
      if (inFlight === p) inFlight = undefined
    }
    p.then(clear, clear)
    return p
  }
  return () => {
    if (!inFlight) return start()
    next ??= inFlight.then(
      () => {
        next = undefined
        return start()
      },
      () => {
        next = undefined
        return start()
      },
    )
    return next
  }
}
