/**
 * The one outbound rule for integrations against real servers on 127.0.0.1: refused unless an
 * admin registered the endpoint and INTEGRATIONS_ALLOW_HOSTS names its host and port; a redirect
 * from a named host to another internal address is refused (every hop is checked).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resetEnvCache } from '../env.ts'
import { integrationFetch, isNamedInternalHost, parseInternalHosts } from './integration-fetch.ts'
import { OutboundRefused } from './outbound.ts'

let named: http.Server
let other: http.Server
let namedPort = 0
let otherPort = 0

const listen = async (handler: http.RequestListener) => {
  const server = http.createServer(handler)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return [server, (server.address() as AddressInfo).port] as const
}

beforeAll(async () => {
  ;[other, otherPort] = await listen((_req, res) => res.end('inside'))
  ;[named, namedPort] = await listen((req, res) => {
    if (req.url === '/hop')
      return void res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` }).end()
    res.end(`hello ${req.method}`)
  })
  process.env.INTEGRATIONS_ALLOW_HOSTS = `127.0.0.1:${namedPort}, hooks.internal`
  resetEnvCache()
})
afterAll(() => {
  named?.close()
  other?.close()
  delete process.env.INTEGRATIONS_ALLOW_HOSTS
  resetEnvCache()
})

describe('INTEGRATIONS_ALLOW_HOSTS', () => {
  it('parses host and host:port entries', () => {
    expect(parseInternalHosts('a.internal, 10.0.0.5:8080 [::1]:9000')).toEqual([
      { host: 'a.internal' },
      { host: '10.0.0.5', port: '8080' },
      { host: '::1', port: '9000' },
    ])
    const list = parseInternalHosts('hooks.internal,127.0.0.1:4000')
    expect(isNamedInternalHost(new URL('https://hooks.internal/x'), list)).toBe(true)
    expect(isNamedInternalHost(new URL('http://127.0.0.1:4000/'), list)).toBe(true)
    expect(isNamedInternalHost(new URL('http://127.0.0.1:4001/'), list)).toBe(false)
    expect(isNamedInternalHost(new URL('http://127.0.0.1/'), list)).toBe(false)
  })

  it('lets an admin-registered endpoint on a named host:port through', async () => {
    const res = await integrationFetch(`http://127.0.0.1:${namedPort}/`, {
      adminRegistered: true,
      method: 'POST',
      body: '{}',
    })
    expect(res.body.toString()).toBe('hello POST')
  })

  it('refuses the same endpoint registered by a person, and unnamed ports', async () => {
    await expect(
      integrationFetch(`http://127.0.0.1:${namedPort}/`, { adminRegistered: false }),
    ).rejects.toThrow(OutboundRefused)
    await expect(
      integrationFetch(`http://127.0.0.1:${otherPort}/`, { adminRegistered: true }),
    ).rejects.toThrow(OutboundRefused)
    await expect(integrationFetch('http://169.254.169.254/', { adminRegistered: true })).rejects.toThrow(
      OutboundRefused,
    )
  })

  it('re-checks redirects: a named host cannot bounce the request to another internal address', async () => {
    await expect(
      integrationFetch(`http://127.0.0.1:${namedPort}/hop`, { adminRegistered: true }),
    ).rejects.toThrow(/127\.0\.0\.1.*not public/)
  })
})
