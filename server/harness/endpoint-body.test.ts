/**
 * A command in a harness's sandbox reaches the run's endpoint over its Unix socket (the URL and
 * token are in the CLI's environment) and sends a body that never ends. The server process is
 * every tenant's: it must stop reading at the endpoint's limit and cut the upload, never keep the
 * body in memory until the command stops sending.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BODY_LIMITS } from '../lib/limits.ts'
import { openOfflineSession } from '#tests/support/harness-session.ts'
import type { HarnessSession } from './endpoint.ts'
import { serveOnSocket, type SocketEndpoint } from './socket.ts'

const MiB = 1024 * 1024
/** Past the limit and the most that is read on and dropped after it (the HTTP layer's 16 MiB). */
const CUT_BY = BODY_LIMITS.harness + 16 * MiB + 4 * MiB
/** What the attacking command sends at most, so an unfixed server cannot take the test machine down. */
const SENT_AT_MOST = CUT_BY * 3

let socket: SocketEndpoint
let session: HarnessSession
beforeAll(async () => {
  // Nothing may be forwarded: the addresses answer nothing.
  session = openOfflineSession({
    mcp: new Map([
      [
        'docs',
        { key: 'docs', name: 'docs', url: 'http://127.0.0.1:9/mcp', headers: {}, adminRegistered: false },
      ],
    ]),
  })
  socket = await serveOnSocket(session.token)
})
afterAll(async () => {
  session?.close()
  await socket?.close()
})

/**
 * Streams chunks of `x` to `path` on the run's socket, respecting back-pressure, until the server
 * answers or cuts the connection (`stopped`), or `SENT_AT_MOST` bytes have gone. The body is never
 * ended.
 */
function endlessUpload(path: string): Promise<{ sent: number; status: number | null; stopped: boolean }> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(MiB, 'x')
    let sent = 0
    let status: number | null = null
    let settled = false
    const req = request({
      socketPath: socket.path,
      path: `/${session.token}${path}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    })
    const settle = (stopped: boolean) => {
      if (settled) return
      settled = true
      resolve({ sent, status, stopped })
      req.destroy()
    }
    req.on('response', (res) => {
      status = res.statusCode ?? null
      res.resume()
      settle(true)
    })
    req.on('error', () => settle(true))
    req.on('close', () => settle(true))
    const pump = () => {
      while (!settled && sent < SENT_AT_MOST) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      // All sent and the body left open, as the attacking command does: the server read it all.
      settle(false)
    }
    pump()
  })
}

describe('an endless body sent to the run’s endpoint from its sandbox', () => {
  it.each(['/v1/messages', '/v1/messages/count_tokens', '/hook', '/mcp/docs'])(
    'is cut off at the limit on %s',
    async (path) => {
      const outcome = await endlessUpload(path)
      expect(outcome.stopped).toBe(true)
      expect(outcome.sent).toBeLessThanOrEqual(CUT_BY)
      if (outcome.status !== null) expect(outcome.status).toBe(413)
    },
    60_000,
  )
})
