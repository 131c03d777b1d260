/**
 * The run's relay to an MCP server hides the server's header values in what it streams back to the
 * sandbox (decision 0446), whatever the pieces the server writes them in: server-sent events sent a
 * byte at a time, and a plain body whose Content-Length no longer holds once a value is hidden. The
 * response headers it passes on hide them too (decision 0450).
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resetEnvCache } from '../env.ts'
import { openOfflineSession } from '#tests/support/harness-session.ts'
import type { HarnessSession } from './endpoint.ts'
import { serveOnSocket, type SocketEndpoint } from './socket.ts'

const TOKEN = 'relay-token-Zq81'
/** A key that can stand as a URL scheme, so a redirect can carry it into an error message. */
const MOVED_KEY = 'movedkey81'

let echo: Server
let socket: SocketEndpoint
let session: HarnessSession
beforeAll(async () => {
  // Hands its Authorization back: in events written a byte at a time, as a plain JSON body, or in
  // the response headers the relay passes on (and one it does not).
  echo = createServer((req, res) => {
    const said = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"said":"${req.headers.authorization}"}}`)
    if (req.url === '/headers') {
      res.writeHead(200, {
        'content-type': `application/json; echo="${req.headers.authorization}"`,
        'mcp-session-id': `session-${req.headers.authorization}`,
        'mcp-protocol-version': TOKEN,
        'x-echo': req.headers.authorization,
      })
      return void res.end('{"jsonrpc":"2.0","id":1,"result":{}}')
    }
    if (req.url === '/session') {
      // A server whose session id carries its token: a request must send that id back as given.
      const id = `session-${req.headers.authorization}`
      const sent = req.headers['mcp-session-id']
      if (sent === undefined) res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': id })
      else res.writeHead(sent === id ? 200 : 404, { 'content-type': 'application/json' })
      return void res.end(sent === undefined || sent === id ? '{"jsonrpc":"2.0","id":1,"result":{}}' : '{}')
    }
    if (req.url === '/moved') {
      // Sends the client on to an address made of its key: the refusal names it.
      res.writeHead(302, { location: `${req.headers['x-api-key']}://elsewhere/` })
      return void res.end()
    }
    if (req.url === '/plain') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': said.length })
      return void res.end(said)
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const bytes = Buffer.concat([Buffer.from('event: message\ndata: '), said, Buffer.from('\n\n')])
    let k = 0
    const drip = () =>
      k < bytes.length ? res.write(bytes.subarray(k, ++k), () => setImmediate(drip)) : res.end()
    drip()
  })
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
  const port = (echo.address() as AddressInfo).port
  process.env.INTEGRATIONS_ALLOW_HOSTS = `127.0.0.1:${port}`
  resetEnvCache()
  const server = (
    name: string,
    path: string,
    headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` },
  ) =>
    [
      name,
      { key: name, name, url: `http://127.0.0.1:${port}${path}`, headers, adminRegistered: true },
    ] as const
  session = openOfflineSession({
    mcp: new Map([
      server('events', '/events'),
      server('plain', '/plain'),
      server('headers', '/headers'),
      server('session', '/session'),
      server('moved', '/moved', { 'X-Api-Key': MOVED_KEY }),
    ]),
  })
  socket = await serveOnSocket(session.token)
})
afterAll(async () => {
  session?.close()
  await socket?.close()
  await new Promise((resolve) => echo?.close(resolve))
  delete process.env.INTEGRATIONS_ALLOW_HOSTS
  resetEnvCache()
})

/** What a command in the sandbox gets from the relay for server `name`: headers and body. */
function ask(
  name: string,
  sent: Record<string, string> = {},
): Promise<{ status?: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: socket.path,
        path: `/${session.token}/mcp/${name}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...sent },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}')
  })
}

describe("the run's MCP relay", () => {
  it('hides a header value in events the server writes a byte at a time', async () => {
    const { body } = await ask('events')
    expect(body).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"said":"[redacted header Authorization]"}}\n\n',
    )
  })

  it('hides it in a plain body, whose length is then not the one the server declared', async () => {
    const { headers, body } = await ask('plain')
    expect(body).toBe('{"jsonrpc":"2.0","id":1,"result":{"said":"[redacted header Authorization]"}}')
    expect(headers['content-length']).toBeUndefined()
    expect(headers['content-type']).toBe('application/json')
  })

  it('hides it in the response headers it passes on, and passes no other', async () => {
    const { headers } = await ask('headers')
    expect(JSON.stringify(headers)).not.toContain(TOKEN)
    expect(headers['mcp-session-id']).toBe('session-[redacted header Authorization]')
    expect(headers['mcp-protocol-version']).toBe('[redacted header Authorization]')
    expect(headers['content-type']).toBe('application/json; echo="[redacted header Authorization]"')
    expect(headers['x-echo']).toBeUndefined()
  })
  it('keeps a session whose id carries a header value: the id sent back as shown reaches the server whole', async () => {
    const first = await ask('session')
    const shown = first.headers['mcp-session-id'] as string
    expect(shown).toBe('session-[redacted header Authorization]')
    const next = await ask('session', { 'mcp-session-id': shown })
    expect(next.status).toBe(200)
    // Only an id the server gave is swapped: one made up in the sandbox passes as it is.
    const madeUp = await ask('session', { 'mcp-session-id': 'session-[redacted header Authorization]x' })
    expect(madeUp.status).toBe(404)
  })

  it('hides it in the error it answers when the server cannot be reached', async () => {
    const { status, body } = await ask('moved')
    expect(status).toBe(502)
    expect(body).not.toContain(MOVED_KEY)
    expect(JSON.parse(body).error).toBe(
      'MCP server moved could not be reached: Scheme [redacted header X-Api-Key]: is not allowed',
    )
  })
})
