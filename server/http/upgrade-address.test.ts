import { once } from 'node:events'
import { createServer, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { describe, expect, it } from 'vitest'
import { upgradeAddress } from './upgrade-address.ts'

/** The address `upgradeAddress` gives a real upgrade request that says it was forwarded for `claimed`. */
async function addressOfUpgrade(trustProxy: boolean | string, claimed: string): Promise<string> {
  const app = express()
  app.set('trust proxy', trustProxy)
  const server = createServer(app)
  const seen = new Promise<string>((resolve) =>
    server.once('upgrade', (req: IncomingMessage, socket) => {
      resolve(upgradeAddress(app, req))
      socket.destroy()
    }),
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const req = request({
    port,
    host: '127.0.0.1',
    headers: { connection: 'upgrade', upgrade: 'websocket', 'x-forwarded-for': claimed },
  })
  req.on('error', () => {})
  req.end()
  try {
    return await seen
  } finally {
    server.close()
  }
}

describe('the client address of an upgrade', () => {
  it('is the socket’s unless a trusted proxy forwarded it, as express’s req.ip is', async () => {
    // A client's own claim counts for nothing without TRUST_PROXY: the waiting limits per address
    // (decision 0427) would be a limit per claim otherwise.
    expect(await addressOfUpgrade(false, '203.0.113.9')).toBe('127.0.0.1')
    expect(await addressOfUpgrade('loopback', '203.0.113.9')).toBe('203.0.113.9')
    expect(await addressOfUpgrade(true, '198.51.100.1, 203.0.113.9')).toBe('198.51.100.1')
  })
})
