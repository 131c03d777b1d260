/**
 * The client address of an HTTP upgrade (a machine's WebSocket), which never passes through
 * express: worked out as express's `req.ip` is, so TRUST_PROXY means the same for it. Behind a
 * proxy that is not trusted every client has the proxy's address; a client's own
 * `X-Forwarded-For` is never believed unless the hop before it is trusted.
 */
import type { IncomingMessage } from 'node:http'
import type { Express, Request } from 'express'

export function upgradeAddress(app: Express, req: IncomingMessage): string {
  const seen = Object.create(app.request, {
    headers: { value: req.headers },
    socket: { value: req.socket },
  }) as Request
  return seen.ip ?? 'unknown'
}
