/**
 * Callers are cached for a few seconds per session (access/caller-cache.ts), and a write may change
 * who someone is (sign-out, a role, an organisation made, renamed, deleted or switched to), so a
 * request that may write starts a new generation of the cache as it begins, again as its answer's
 * head is written, and when it ends.
 *
 * "As its head is written": the handler's work is done by then, and a browser can act on an answer
 * before it ends. React Router's action answers are a stream its client decodes as it arrives, and
 * revalidation (or the page a redirect names) was asked for, and answered from the caller the write's
 * own request had cached as it began, before the end of the answer was even sent: a renamed
 * organisation kept its old name in the switcher, one made or deleted showed the one before.
 */
import type { RequestHandler, Response } from 'express'
import { invalidateCallers } from '../access/caller-cache.ts'

export function forgetCallersOnWrites(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next()
    // An MCP request acts through a token and changes no one's identity, role or organisation; it
    // must not empty every session's cached caller at a client's request rate.
    if (req.path === '/_agent-native/mcp' && !req.headers.cookie) return next()
    invalidateCallers()
    forgetAsHeadIsWritten(res)
    res.once('finish', invalidateCallers)
    res.once('close', invalidateCallers)
    next()
  }
}

/** The head is written by writeHead, or by the first write() through it (Node's implicit head). */
function forgetAsHeadIsWritten(res: Response) {
  const writeHead = res.writeHead as (...args: unknown[]) => Response
  res.writeHead = function (this: Response, ...args: unknown[]) {
    invalidateCallers()
    return writeHead.apply(this, args)
  } as Response['writeHead']
}
