/**
 * git sources connect only where the host check said, with the real git: the checked address is
 * pinned (a name DNS cannot resolve still reaches the pinned address, so git asks DNS nothing), and a
 * name resolving to loopback is refused before git starts, through the environment's bootstrap too.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { lookup } from 'node:dns/promises'
import { once } from 'node:events'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cloneRepo, runClone } from '#server/environments/bootstrap/clone.ts'
import { DEFAULT_LIMITS } from '#server/environments/exec/exec-schema.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let client: ApiClient
let dir: string
let server: net.Server
let port: number
let connections = 0

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-git-pin-'))
  chmodSync(dir, 0o777) // git runs as the sandbox uid
  // Stands where a git host would: counts who connects, answers nothing (the TLS handshake fails).
  server = net.createServer((socket) => {
    connections++
    socket.destroy()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as net.AddressInfo).port
  app = await startTestApp({ env: { ENVIRONMENTS_DIR: path.join(dir, 'environments') } })
  client = app.client()
  await client.signUp('Pat', 'pat@example.com')
}, 120_000)

afterAll(async () => {
  await app?.close()
  server?.close()
  rmSync(dir, { recursive: true, force: true })
})

const request = (url: string, target: string) => ({
  url,
  dir: target,
  cwd: dir,
  depth: 1 as const,
  field: 'source.url',
})
const keep = (text: string) => text
const bounds = () => ({ root: dir, limits: DEFAULT_LIMITS, heldBytes: 0 })

/** A name other than `localhost` that resolves to loopback here (this host's name, usually). */
async function loopbackName(): Promise<string> {
  for (const name of [os.hostname(), 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']) {
    const addresses = await lookup(name, { all: true }).catch(() => [])
    if (addresses.length > 0 && addresses.every((a) => a.address === '::1' || a.address.startsWith('127.'))) {
      return name
    }
  }
  throw new Error('no name other than localhost resolves to loopback on this machine (see /etc/hosts)')
}

describe('the address git connects to', () => {
  it('is the pinned one: a name DNS does not know reaches the pinned address', async () => {
    const host = 'clockwork-pin-check.invalid'
    const url = `https://${host}:${port}/acme/app.git`
    // Unpinned, git has to ask DNS, which knows no such name: nobody is contacted.
    await expect(runClone(request(url, 'a'), undefined, keep, bounds())).rejects.toMatchObject({
      status: 400,
    })
    expect(connections).toBe(0)
    // Pinned, git connects to the pinned address without asking.
    await expect(
      runClone(request(url, 'b'), { host, port, addresses: ['127.0.0.1'] }, keep, bounds()),
    ).rejects.toMatchObject({ status: 400 })
    expect(connections).toBeGreaterThan(0)
  })

  it('is never one a name resolving to loopback leads to: refused before git runs', async () => {
    const before = connections
    await expect(
      cloneRepo(request(`https://localhost:${port}/acme/app.git`, 'c'), keep, bounds()),
    ).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('localhost is not a public host'),
    })
    expect(connections).toBe(before)
  })

  it("refuses such a source when an environment's bootstrap clones it, and nothing is contacted", async () => {
    // The definition already refuses `localhost` by name: take another name of this machine.
    const name = await loopbackName()
    const before = connections
    const definition = `---\nsource: { type: git, url: "https://${name}:${port}/acme/app.git" }\n---\nApp.\n`
    const put = await client.put('/_agent-native/resources/personal/environments/inside.md', definition)
    expect(put.status).toBe(201)
    const ran = await client.post('/_agent-native/environments/inside/commands', { command: 'ls' })
    expect(ran.status).toBe(403)
    expect(ran.body.error.message).toContain(`${name} is not a public host`)
    expect(connections).toBe(before)
  })
})
