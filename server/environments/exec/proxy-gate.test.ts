/**
 * The proxy gate against a stand-in for sandbox-runtime's proxy (a real HTTP server on a Unix
 * socket that records what reaches it), spoken to the way tools in a sandbox speak to their proxy:
 * HTTP with an absolute URL, CONNECT, SOCKS5. What the command says about who it is (its proxy
 * user) is never passed on; only the gate's own credential is.
 */
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import http, { type IncomingMessage } from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { allowsHost, MAX_GATE_CONNECTIONS, openGate, type Gate } from './proxy-gate.ts'

const OURS = 'Basic c3J0LmdhdGU6dG9rZW4='
const FORGED = `Basic ${Buffer.from('srt.someone-else:stolen-token').toString('base64')}`

let dir: string
let upstream: http.Server
/** What reached the stand-in runtime proxy: `METHOD target` and the credential it carried. */
let reached: { request: string; authorization?: string }[]
let gate: Gate
let refused: string[]

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proxy-gate-'))
  const note = (req: IncomingMessage) =>
    reached.push({ request: `${req.method} ${req.url}`, authorization: req.headers['proxy-authorization'] })
  upstream = http.createServer((req, res) => {
    note(req)
    res.end(`upstream answered ${req.url}`)
  })
  upstream.on('connect', (req: IncomingMessage, socket: net.Socket) => {
    note(req)
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    socket.pipe(socket) // an echo for a tunnel
  })
  upstream.listen(join(dir, 'runtime.sock'))
  await once(upstream, 'listening')
})
afterAll(async () => {
  upstream.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(async () => {
  reached = []
  refused = []
  gate = await openGate({
    hosts: ['a.test', '*.b.test:8443'],
    upstream: { socket: join(dir, 'runtime.sock'), authorization: OURS },
    onRefused: (target) => refused.push(target),
  })
})
afterEach(() => gate.close())

/** Raw bytes to the gate; resolves with everything it answered until it closed or went quiet. */
async function exchange(...parts: Buffer[]): Promise<Buffer> {
  const socket = net.connect(gate.path)
  const got: Buffer[] = []
  socket.on('data', (chunk) => got.push(chunk))
  for (const part of parts) {
    socket.write(part)
    await new Promise((resolve) => socket.once('data', resolve))
  }
  socket.end()
  await once(socket, 'close')
  return Buffer.concat(got)
}

const text = (s: string) => Buffer.from(s)

describe('plain HTTP', () => {
  it('passes an allowed host on under its own credential, never the one the command sent', async () => {
    const answer = await exchange(
      text(
        `GET http://a.test/x HTTP/1.1\r\nHost: a.test\r\nProxy-Authorization: ${FORGED}\r\nConnection: close\r\n\r\n`,
      ),
    )
    expect(answer.toString()).toMatch(/^HTTP\/1.1 200[^]*upstream answered http:\/\/a.test\/x$/)
    expect(reached).toEqual([{ request: 'GET http://a.test/x', authorization: OURS }])
  })

  it('judges every request on a kept-alive connection: a refused one never reaches the proxy', async () => {
    const first = text('GET http://a.test/1 HTTP/1.1\r\nHost: a.test\r\n\r\n')
    const second = text('GET http://c.test/2 HTTP/1.1\r\nHost: c.test\r\nConnection: close\r\n\r\n')
    const answer = (await exchange(first, second)).toString()
    expect(answer).toMatch(/^HTTP\/1.1 200[^]*HTTP\/1.1 403[^]*Connection blocked by network allowlist/)
    expect(reached.map((r) => r.request)).toEqual(['GET http://a.test/1'])
    expect(refused).toEqual(['c.test:80'])
  })
})

describe('CONNECT', () => {
  it('tunnels to an allowed host and port; refuses another port of it', async () => {
    const answer = await exchange(text('CONNECT x.b.test:8443 HTTP/1.1\r\n\r\n'), text('ping'))
    expect(answer.toString()).toBe('HTTP/1.1 200 Connection Established\r\n\r\nping')
    const other = await exchange(text('CONNECT x.b.test:443 HTTP/1.1\r\n\r\n'))
    expect(other.toString()).toMatch(/^HTTP\/1.1 403/)
    expect(reached).toEqual([{ request: 'CONNECT x.b.test:8443', authorization: OURS }])
    expect(refused).toEqual(['x.b.test:443'])
  })
})

describe('SOCKS5', () => {
  const greeting = Buffer.from([5, 1, 2])
  const login = (user: string) =>
    Buffer.from([1, user.length, ...Buffer.from(user), 5, ...Buffer.from('token')])
  const connectTo = (host: string, port: number) =>
    Buffer.from([5, 1, 0, 3, host.length, ...Buffer.from(host), port >> 8, port & 0xff])

  it('takes any name and password, and judges the host the request names', async () => {
    const allowed = await exchange(greeting, login('srt.someone-else'), connectTo('a.test', 80), text('ping'))
    // Method: user/password; login accepted; granted; then the echo.
    expect([...allowed.subarray(0, 6)]).toEqual([5, 2, 1, 0, 5, 0])
    expect(allowed.subarray(-4).toString()).toBe('ping')
    const other = await exchange(greeting, login('srt.someone-else'), connectTo('c.test', 80))
    expect([...other.subarray(4, 6)]).toEqual([5, 2]) // not allowed by the ruleset
    expect(reached).toEqual([{ request: 'CONNECT a.test:80', authorization: OURS }])
    expect(refused).toEqual(['c.test:80'])
  })
})

describe('open connections', () => {
  it('holds at most MAX_GATE_CONNECTIONS of a command at once; one more is closed unread', async () => {
    const held = await Promise.all(
      Array.from({ length: MAX_GATE_CONNECTIONS }, async () => {
        const socket = net.connect(gate.path)
        await once(socket, 'connect')
        return socket
      }),
    )
    const extra = net.connect(gate.path)
    extra.on('error', () => {})
    await once(extra, 'close')
    // The held ones still work, and a place freed is taken again.
    held.pop()!.destroy()
    await expect
      .poll(async () => (await exchange(text('CONNECT a.test:80 HTTP/1.1\r\n\r\n'), text('ping'))).toString())
      .toBe('HTTP/1.1 200 Connection Established\r\n\r\nping')
    for (const socket of held) socket.destroy()
  })
})

describe('allowsHost', () => {
  const hosts = ['api.example.com', '*.example.org', 'pinned.example.net:443', '8.8.8.8', '*.8.8']
  it.each([
    ['api.example.com', 80, true],
    ['API.Example.COM', 443, true],
    ['api.example.com.', 443, false], // another spelling: not judged, refused
    ['example.com', 443, false],
    ['x.api.example.com', 443, false],
    ['deep.sub.example.org', 443, true],
    ['example.org', 443, false],
    ['pinned.example.net', 443, true],
    ['pinned.example.net', 80, false],
    ['8.8.8.8', 53, true],
    ['9.9.8.8', 53, false], // a wildcard never covers an address literal
    ['134744072', 80, false],
    ['[::1]', 80, false],
    ['a.test%00.api.example.com', 80, false],
  ] as const)('%s:%i → %s', (host, port, expected) => {
    expect(allowsHost(hosts, host, port)).toBe(expected)
  })
})
