/**
 * Security headers on every response (pages, API, assets) through helmet: a Content-Security-Policy
 * whose scripts need a per-request nonce (React Router's inline scripts get it from
 * app/entry.server.tsx), no framing, nosniff, a referrer policy, and HSTS when the app is served
 * over https.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestHandler } from 'express'
import helmet from 'helmet'

/** Request header carrying the nonce to the React render; always set by the server, never trusted from a client. */
export const CSP_NONCE_HEADER = 'x-clockwork-csp-nonce'

const nonceOf = (_req: IncomingMessage, res: ServerResponse) =>
  `'nonce-${(res as ServerResponse & { locals: { cspNonce: string } }).locals.cspNonce}'`

export function securityHeaders(options: { https: boolean; development: boolean }): RequestHandler[] {
  const setNonce: RequestHandler = (req, res, next) => {
    const nonce = randomBytes(16).toString('base64')
    res.locals.cspNonce = nonce
    req.headers[CSP_NONCE_HEADER] = nonce
    next()
  }
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", nonceOf],
        // Toasts and the code editor inject <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // Vite's HMR client talks over a WebSocket to this server in development.
        connectSrc: options.development ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.https ? { maxAge: 365 * 24 * 3600, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  })
  return [setNonce, headers]
}
