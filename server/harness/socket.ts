/**
 * The run's endpoint on a Unix socket: the sandbox has no network, so its folder is bound into it
 * and a relay inside (socat, on a loopback port of the sandbox's own network namespace) carries the
 * harness's HTTP to it. The folder is fresh, 0711 and named at random; the socket is the sandbox
 * user's to connect to. Every request still names the run's token (endpoint.ts), and a socket
 * answers its own run's token only: another run's, read from its folder, opens nothing here.
 */
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { sandboxIdentity } from '../environments/exec/identity.ts'
import { holdBody, serverBodyBudget, type BudgetRefusal } from '../lib/body-budget.ts'
import { BODY_LIMITS } from '../lib/limits.ts'
import { handleHarnessRequest } from './endpoint.ts'

export type SocketEndpoint = { dir: string; path: string; close: () => Promise<void> }

export async function serveOnSocket(token: string): Promise<SocketEndpoint> {
  const dir = await mkdtemp(join(tmpdir(), 'clockwork-harness-'))
  await chmod(dir, 0o711)
  const path = join(dir, 'endpoint.sock')
  const server = createServer((req, res) => void answer(token, req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, resolve)
  })
  const id = sandboxIdentity()
  if (id.drop) await chown(path, id.uid, id.gid)
  await chmod(path, 0o600)
  return {
    dir,
    path,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** `/<token>/<rest>` → the endpoint's answer for this socket's run, streamed back. */
async function answer(token: string, req: IncomingMessage, res: ServerResponse) {
  const upload = req.method === 'GET' || req.method === 'HEAD' ? undefined : budgeted(token, req, res)
  if (upload === null) return
  try {
    const match = /^\/([A-Za-z0-9_-]+)(\/.*)$/.exec(req.url ?? '')
    const request = new Request(`http://endpoint${req.url ?? '/'}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v] as [string, string]],
      ),
      body: upload && (Readable.toWeb(upload) as ReadableStream),
      duplex: 'half',
    } as RequestInit)
    const response = !match
      ? Response.json({ error: 'not found' }, { status: 404 })
      : match[1] === token
        ? await handleHarnessRequest(token, match[2]!, request, 'socket')
        : Response.json({ error: 'This harness run has ended or never existed' }, { status: 401 })
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (!response.body) return void res.end()
    const body = Readable.fromWeb(response.body as NodeReadableStream)
    res.on('close', () => body.destroy())
    body.on('error', () => res.destroy())
    body.pipe(res)
  } catch {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'endpoint failed' } }))
  }
}

/**
 * The request's body, its bytes taken from the server's body budget as they arrive (its declared
 * length at once) and given back when the request is over: no HTTP layer stands in front of the
 * socket, and a command in the sandbox could otherwise open many uploads and hold them all. The
 * run's share is a client's (room for one long conversation); null when refused (answered here).
 */
function budgeted(token: string, req: IncomingMessage, res: ServerResponse): Readable | null {
  const hold = holdBody(serverBodyBudget(), `harness-run:${token}`, res)
  // Past the limit the endpoint refuses the body (413) and nothing more of it is kept.
  const limit = BODY_LIMITS.harness
  const declared = Number(req.headers['content-length'])
  const early = declared > 0 && declared <= limit ? hold.growTo(declared) : null
  if (early) {
    refuseBody(res, early)
    req.resume()
    return null
  }
  let size = 0
  return req.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        const refusal = size <= limit ? hold.growTo(size) : null
        if (!refusal) return callback(null, chunk)
        refuseBody(res, refusal)
        req.destroy()
        callback(new Error('request body refused'))
      },
    }),
  )
}

/** A refusal the harness's Anthropic client retries: its run's share (429) or the server's (529). */
function refuseBody(res: ServerResponse, refusal: BudgetRefusal) {
  if (res.headersSent) return void res.destroy()
  const [status, type, message] =
    refusal === 'address'
      ? [429, 'rate_limit_error', "This run's other requests are still sending or using their bodies"]
      : [529, 'overloaded_error', 'The server is receiving too many request bodies; try again shortly']
  res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' })
  res.end(JSON.stringify({ type: 'error', error: { type, message } }))
}
