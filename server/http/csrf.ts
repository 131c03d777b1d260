/**
 * Cross-site request forgery guard for every state-changing request (API, better-auth and page
 * actions). A browser always sends `Origin` on such requests, and fetch metadata
 * (`Sec-Fetch-Site`) where it does not; a forged page cannot fake either. API bodies must also be
 * of the type the route reads (JSON, or text for workspace files), which a plain HTML form cannot
 * send cross-origin without a preflight we never grant. Refusals are 403 JSON.
 */
import type { IncomingMessage } from 'node:http'
import type { RequestHandler } from 'express'
import { trustedOrigins } from '../auth/auth.ts'
import { forbidden, toErrorBody } from '../lib/errors.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Why this request is refused, or null when it may go on. */
export function csrfRefusal(req: IncomingMessage, path: string, allowed: readonly string[]): string | null {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return null
  // A bearer token is not sent by a browser on its own, so such a request cannot be forged.
  if (!req.headers.cookie && /^bearer /i.test(req.headers.authorization ?? '')) return null
  // A harness run's endpoint: the run's token in the path is its credential, never a cookie.
  if (!req.headers.cookie && path.startsWith('/_agent-native/harness/runs/')) return null
  // The MCP endpoint reads no cookie, only a bearer token: without one it answers 401 itself.
  if (!req.headers.cookie && path === '/_agent-native/mcp') return null
  const origin = req.headers.origin
  if (origin !== undefined) {
    if (!allowed.includes(origin)) return `Origin ${origin} may not change data here`
  } else if (req.headers['sec-fetch-site'] !== 'same-origin') {
    return 'State changes need an Origin header naming this app (browsers send it; with curl, add -H "origin: <APP_URL>")'
  }
  if (!path.startsWith('/_agent-native/')) return null
  return contentTypeRefusal(req, path)
}

function contentTypeRefusal(req: IncomingMessage, path: string): string | null {
  const length = req.headers['content-length']
  const empty = req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')
  if (empty) return null
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json') return null
  if (path.startsWith('/_agent-native/resources/') && type.startsWith('text/')) return null
  const expected = path.startsWith('/_agent-native/resources/') ? 'text/* (the file)' : 'application/json'
  return `Content-Type ${type || '(none)'} is not accepted here; send ${expected}`
}

export function rejectCrossSite(): RequestHandler {
  return (req, res, next) => {
    const reason = csrfRefusal(req, req.path, trustedOrigins())
    if (!reason) return next()
    res
      .status(403)
      .set('cache-control', 'no-store')
      .json(toErrorBody(forbidden(reason)))
  }
}
