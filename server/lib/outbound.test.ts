/**
 * The outbound guard against real HTTP servers on 127.0.0.0/8. The address policy is widened to
 * 127.0.0.1 only where a test needs a reachable server; everything else runs the real policy.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { guardedFetch, hostAllowed, isPublicAddress, OutboundRefused, parseHostList } from './outbound.ts'

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    // Forms that embed an IPv4 address another way (an outside review found these judged public).
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '64:ff9b:1::7f00:1',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    // Site-local (deprecated, yet still routed inside some networks).
    'fec0::1',
    'feff::1',
    'not-an-ip',
  ])('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false))

  it.each(['1.1.1.1', '8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '::ffff:1.1.1.1'])(
    'accepts %s',
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  )
})

describe('hostAllowed / parseHostList', () => {
  it('matches exact names and *.suffix wildcards, nothing else', () => {
    const allow = parseHostList('api.example.com, *.example.org')
    expect(allow).toEqual(['api.example.com', '*.example.org'])
    expect(hostAllowed('api.example.com', allow)).toBe(true)
    expect(hostAllowed('API.example.com.', allow)).toBe(true)
    expect(hostAllowed('a.b.example.org', allow)).toBe(true)
    expect(hostAllowed('example.org', allow)).toBe(false)
    expect(hostAllowed('evilexample.org', allow)).toBe(false)
    expect(hostAllowed('api.example.com.evil.test', allow)).toBe(false)
    expect(hostAllowed('anything', [])).toBe(false)
  })
})

describe('guardedFetch', () => {
  let server: http.Server
  let port = 0
  const hits: string[] = []
  const keys: Record<string, string | string[] | undefined> = {}
  /** Answers to /redirect-endless still being written (their connection still open). */
  let endlessOpen = 0
  /** Answers still trickling (their connection still open). */
  let trickling = 0

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`)
      keys[`${req.headers.host}${req.url}`] = req.headers['x-api-key']
      if (req.url === '/redirect-away')
        return res.writeHead(302, { location: `http://localhost:${port}/collect` }).end()
      if (req.url === '/redirect-private')
        return res.writeHead(302, { location: `http://127.0.0.2:${port}/` }).end()
      if (req.url === '/redirect-ok') return res.writeHead(302, { location: '/hello' }).end()
      if (req.url === '/redirect-endless') {
        endlessOpen++
        res.on('close', () => endlessOpen--)
        res.writeHead(302, { location: '/hello' })
        const pump = () => {
          while (!res.destroyed && res.write('x'.repeat(16_384)));
        }
        res.on('drain', pump)
        return pump()
      }
      if (req.url === '/big') return res.end('x'.repeat(10_000))
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2_000)
      if (req.url === '/trickle-head' || req.url === '/trickle-body') {
        // A byte at a time, never finishing: the head (raw, on the socket) or the body.
        trickling++
        res.on('close', () => trickling--)
        if (req.url === '/trickle-body') res.writeHead(200)
        else res.socket!.write('HTTP/1.1 200 OK\r\nX-Long: ')
        const timer = setInterval(() => {
          if (req.url === '/trickle-body') res.write('x')
          else res.socket!.write('x')
        }, 20)
        return res.on('close', () => clearInterval(timer))
      }
      res.end('hello')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  )

  const onlyLocalhostOne = (ip: string) => ip === '127.0.0.1'
  const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(OutboundRefused)

  it('refuses loopback, private and metadata addresses with the real policy', async () => {
    const allowHosts = ['127.0.0.1', '10.0.0.1', '169.254.169.254', 'localhost', '[::1]']
    await refused(guardedFetch(`http://127.0.0.1:${port}/`, { allowHosts }))
    await refused(guardedFetch('http://10.0.0.1/', { allowHosts }))
    await refused(guardedFetch('http://169.254.169.254/latest/meta-data/', { allowHosts }))
    await refused(guardedFetch(`http://localhost:${port}/`, { allowHosts }))
    await refused(guardedFetch(`http://[::1]:${port}/`, { allowHosts }))
    expect(hits).toEqual([])
  })

  it('refuses a public-looking name that resolves to loopback', async () => {
    const lookup = (_h: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }])
    await refused(
      guardedFetch(`http://api.example.test:${port}/`, { allowHosts: ['api.example.test'], lookup }),
    )
  })

  it('refuses a name with one public and one private answer', async () => {
    const lookup = (_h: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
      cb(null, [
        { address: '1.1.1.1', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ])
    await refused(guardedFetch('http://mixed.example.test/', { allowHosts: ['mixed.example.test'], lookup }))
  })

  it('refuses hosts off the allowlist, other schemes and credentials before any DNS lookup', async () => {
    let lookups = 0
    const lookup = (_h: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) => {
      lookups++
      cb(null, [{ address: '1.1.1.1', family: 4 }])
    }
    await refused(guardedFetch('http://other.example.test/', { allowHosts: ['api.example.test'], lookup }))
    await refused(guardedFetch('file:///etc/passwd', { allowHosts: ['api.example.test'], lookup }))
    await refused(guardedFetch('http://u:p@api.example.test/', { allowHosts: ['api.example.test'], lookup }))
    expect(lookups).toBe(0)
  })

  it('connects to the address it checked, not to a second DNS answer (no rebinding)', async () => {
    const answers = ['127.0.0.1', '127.0.0.2']
    const lookup = (_h: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: answers.shift() ?? '127.0.0.2', family: 4 }])
    const res = await guardedFetch(`http://rebind.example.test:${port}/`, {
      allowHosts: ['rebind.example.test'],
      lookup,
      addressPolicy: onlyLocalhostOne,
    })
    expect(res.body.toString()).toBe('hello')
    expect(answers).toEqual(['127.0.0.2'])
  })

  it('re-checks every redirect hop', async () => {
    const options = { allowHosts: ['127.0.0.1', '127.0.0.2'], addressPolicy: onlyLocalhostOne }
    await refused(guardedFetch(`http://127.0.0.1:${port}/redirect-private`, options))
    const ok = await guardedFetch(`http://127.0.0.1:${port}/redirect-ok`, options)
    expect(ok).toMatchObject({ status: 200, url: `http://127.0.0.1:${port}/hello` })
  })

  it('lets go of a redirect whose body never ends, followed or not', async () => {
    // web_fetch and MCP follow redirects; webhooks follow none. Either way the redirect's body
    // was drained until it ended, which a hostile server made never.
    const options = { allowHosts: ['127.0.0.1'], addressPolicy: onlyLocalhostOne }
    const followed = await guardedFetch(`http://127.0.0.1:${port}/redirect-endless`, options)
    expect(followed).toMatchObject({ status: 200, url: `http://127.0.0.1:${port}/hello` })
    await refused(guardedFetch(`http://127.0.0.1:${port}/redirect-endless`, { ...options, maxRedirects: 0 }))
    await expect.poll(() => endlessOpen, { timeout: 20_000 }).toBe(0)
  })

  it('gives up on a head or a body that trickles for ever, and closes its connection', async () => {
    const options = { allowHosts: ['127.0.0.1'], addressPolicy: onlyLocalhostOne, timeoutMs: 300 }
    await expect(guardedFetch(`http://127.0.0.1:${port}/trickle-head`, options)).rejects.toThrow(/timed out/)
    await expect(guardedFetch(`http://127.0.0.1:${port}/trickle-body`, options)).rejects.toThrow(/timed out/)
    await expect.poll(() => trickling, { timeout: 20_000 }).toBe(0)
  })

  it('sends no credential header past a redirect to another origin', async () => {
    // An MCP server with a secret header, whose host has an open redirect: the secret must not
    // follow the redirect to wherever it points (here another host name of the test server).
    const options = {
      allowHosts: ['127.0.0.1', 'localhost'],
      addressPolicy: onlyLocalhostOne,
      lookup: (_h: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
        cb(null, [{ address: '127.0.0.1', family: 4 }]),
      headers: { 'x-api-key': 'secret-key', accept: 'application/json' },
    }
    const res = await guardedFetch(`http://127.0.0.1:${port}/redirect-away`, options)
    expect(res.url).toBe(`http://localhost:${port}/collect`)
    expect(keys[`127.0.0.1:${port}/redirect-away`]).toBe('secret-key')
    expect(keys[`localhost:${port}/collect`]).toBeUndefined()
    // Within the origin it still goes along.
    await guardedFetch(`http://127.0.0.1:${port}/redirect-ok`, options)
    expect(keys[`127.0.0.1:${port}/hello`]).toBe('secret-key')
  })

  it('caps the response size and honours the timeout', async () => {
    const options = { allowHosts: ['127.0.0.1'], addressPolicy: onlyLocalhostOne }
    await refused(guardedFetch(`http://127.0.0.1:${port}/big`, { ...options, maxBytes: 1_000 }))
    await expect(
      guardedFetch(`http://127.0.0.1:${port}/slow`, { ...options, timeoutMs: 200 }),
    ).rejects.toThrow(/timed out/)
  })
})
