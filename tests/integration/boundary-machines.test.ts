/**
 * Connected machines as a hostile account or a careless one would meet them (issue 25, items 14
 * and 15), with the real client against the real server: a revoked token's open connection, on the
 * instance holding it while the revoke arrives at another; the disconnect action; the cap on
 * machines per account; machine ids and labels that come from the token; and a second computer
 * that must ask before it replaces a connected one; and an account opened with an admin's reset
 * link, which takes the person's machines offline with it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getDb } from '#server/db/client.ts'
import { queryRows } from '#server/db/sql.ts'
import { machineProvider } from '#server/machines/provider.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { downloadClient, startClient, type MachineClient } from '#tests/support/machine-client.ts'
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const SECRET = 'test-secret-test-secret-test-secret-0123' // the test app's; instances share it
const MAX = 5
let app: TestApp
let other: SpawnedServer
let clientFile: string
let alice: ApiClient
let aliceId: string
let bob: ApiClient
const started: MachineClient[] = []
const dirs: string[] = []

beforeAll(async () => {
  app = await startTestApp({ env: { USER_MAX_MACHINES: String(MAX), BETTER_AUTH_SECRET: SECRET } })
  // A second instance of the same deployment: same database, same app secret.
  other = await spawnServer(
    {
      DATABASE_URL: process.env.DATABASE_URL!,
      BETTER_AUTH_SECRET: SECRET,
      SCHEDULER_ENABLED: 'false',
      USER_MAX_MACHINES: String(MAX),
    },
    undefined,
    'compiled',
  )
  alice = app.client()
  aliceId = (await alice.signUp('Alice', 'alice@example.com')).id
  bob = app.client()
  await bob.signUp('Bob', 'bob@example.com')
  clientFile = await downloadClient(app.baseUrl)
}, 240_000)

afterAll(async () => {
  for (const ws of sockets) ws.terminate()
  for (const client of started) await client.kill()
  await other?.stop()
  await app?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-boundary-machines-'))
  dirs.push(dir)
  return dir
}

async function token(client: ApiClient, name: string) {
  const res = await client.post('/_agent-native/machines/tokens', { name })
  expect(res.status).toBe(201)
  return res.body as { token: string; summary: { id: string; machineId: string; name: string } }
}

/** The client as the connect command starts it: server, token and directory, nothing else. */
function connect(tok: string, options: { server?: string; dir?: string; extra?: string[] } = {}) {
  const args = ['--server', options.server ?? app.baseUrl, '--token', tok, '--dir', options.dir ?? tempDir()]
  const client = startClient(clientFile, [...args, ...(options.extra ?? [])])
  started.push(client)
  return client
}

const sockets: WebSocket[] = []

/** Opens a machine socket with `tok` and registers as `id`; answers the JSON-RPC response. */
async function register(tok: string, id: string): Promise<{ result?: unknown; error?: { message: string } }> {
  const ws = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/_agent-native/machines/connect`, {
    headers: { authorization: `Bearer ${tok}` },
  })
  sockets.push(ws)
  await once(ws, 'open')
  const answer = new Promise<{ result?: unknown; error?: { message: string } }>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(String(data))
      if (message.id === 1) resolve(message)
    }),
  )
  const params = { id, label: id, os: 'test', version: '1.1.0', dir: '/nowhere', activeRuns: [] }
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'register', params }))
  return answer
}

const exited = (client: MachineClient) =>
  client.child.exitCode !== null ? Promise.resolve() : once(client.child, 'exit').then(() => undefined)

const listed = async (client: ApiClient) =>
  (await client.get('/_agent-native/machines')).body.machines as {
    id: string
    label: string
    online: boolean
  }[]

describe('ids and labels come from the token', () => {
  it('each token connects its own machine, named after it: a second computer does not replace the first', async () => {
    const laptop = await token(alice, "Alice's laptop")
    const desktop = await token(alice, "Alice's desktop")
    expect(laptop.summary.machineId).toBe('alices-laptop')
    expect(desktop.summary.machineId).toBe('alices-desktop')
    const one = connect(laptop.token)
    await one.waitFor('is online')
    const two = connect(desktop.token)
    await two.waitFor('is online')
    expect(one.output()).toContain('"Alice\'s laptop" (alices-laptop) is online')
    expect(one.output()).not.toContain('replaced')
    const machines = await listed(alice)
    expect(machines.map((m) => [m.id, m.label, m.online])).toEqual(
      expect.arrayContaining([
        ['alices-laptop', "Alice's laptop", true],
        ['alices-desktop', "Alice's desktop", true],
      ]),
    )
    // A token's name is unique per person: the same machine id twice would be the old trap again.
    const again = await alice.post('/_agent-native/machines/tokens', { name: "alice's LAPTOP" })
    expect(again.status).toBe(409)
    expect(again.body.error.field).toBe('name')
    // An id on the command line that is not the token's is refused, not silently used.
    const wrong = connect(laptop.token, { extra: ['--id', 'laptop'] })
    await wrong.waitFor(/refused.*alices-laptop/)
    await exited(wrong)
    expect(wrong.child.exitCode).not.toBe(0)
  }, 60_000)

  it('the same token on a second computer is refused while the first is connected, unless --replace', async () => {
    const { token: tok } = await token(alice, 'Shared box')
    const first = connect(tok)
    await first.waitFor('is online')
    const second = connect(tok)
    await second.waitFor('already connected')
    await exited(second)
    expect(second.child.exitCode).not.toBe(0)
    expect(first.output()).not.toContain('replaced')
    const ran = await machineProvider.runCommand(aliceId, 'shared-box', {
      command: 'echo still-first',
      runId: 'run_first',
      timeoutMs: 10_000,
    })
    expect(ran.stdout).toBe('still-first\n')
    const replacing = connect(tok, { extra: ['--replace'] })
    await replacing.waitFor('is online')
    await first.waitFor('replaced this one; exiting')
    await exited(first)
  }, 60_000)
})

describe('revoking, disconnecting, and the cap', () => {
  it('revoking a token closes its open connection at once, also when another instance holds it', async () => {
    const { token: tok, summary } = await token(alice, 'Revoked box')
    // Held by the second instance (`--id` as the token's: clients of the old connect command say it).
    const client = connect(tok, { server: other.baseUrl, extra: ['--id', 'revoked-box'] })
    await client.waitFor('is online')
    const command = { command: 'echo served', runId: 'run_revoke', timeoutMs: 10_000 }
    expect((await machineProvider.runCommand(aliceId, 'revoked-box', command)).stdout).toBe('served\n')
    expect((await alice.delete(`/_agent-native/machines/tokens/${summary.id}`)).status).toBe(204)
    // Offline as soon as the revoke has answered, not once the holder has seen the socket close.
    expect((await listed(alice)).find((m) => m.id === 'revoked-box')?.online ?? false).toBe(false)
    await client.waitFor('revoked')
    await exited(client)
    await expect(machineProvider.runCommand(aliceId, 'revoked-box', command)).rejects.toMatchObject({
      status: expect.any(Number),
    })
  }, 60_000)

  it('a client that never answers the close is offline as soon as its token is revoked', async () => {
    // An account of its own: Alice's machines are at the cap by now.
    const frank = app.client()
    await frank.signUp('Frank', 'frank@example.com')
    const { token: tok, summary } = await token(frank, 'Deaf box')
    expect(await register(tok, 'deaf-box')).toHaveProperty('result')
    // It stops reading its socket: the close frame is never answered, so the server's socket stays
    // open until the WebSocket close timeout (30 s), and its close handler waits as long.
    sockets.at(-1)!.pause()
    expect((await listed(frank)).find((m) => m.id === 'deaf-box')?.online).toBe(true)
    expect((await frank.delete(`/_agent-native/machines/tokens/${summary.id}`)).status).toBe(204)
    expect((await listed(frank)).find((m) => m.id === 'deaf-box')?.online).toBe(false)
  }, 60_000)

  it('Disconnect ends a machine’s connection and takes it off the list; only its owner may', async () => {
    const { token: tok } = await token(alice, 'Old box')
    const client = connect(tok, { extra: ['--id', 'old-box'] })
    await client.waitFor('is online')
    expect((await bob.delete('/_agent-native/machines/old-box')).status).toBe(404)
    expect((await alice.delete('/_agent-native/machines/old-box')).status).toBe(204)
    await client.waitFor('disconnected from Settings')
    await exited(client)
    expect((await listed(alice)).map((m) => m.id)).not.toContain('old-box')
    await expect(
      machineProvider.runCommand(aliceId, 'old-box', { command: 'pwd', runId: 'run_old', timeoutMs: 5_000 }),
    ).rejects.toMatchObject({ status: 404 })
  }, 60_000)

  it(`caps the machines of one account at USER_MAX_MACHINES (${MAX} here)`, async () => {
    // A hostile account speaks the protocol itself: one socket and one registration per machine.
    const carol = app.client()
    await carol.signUp('Carol', 'carol@example.com')
    const names = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6']
    const answers = []
    for (const name of names) answers.push(await register((await token(carol, name)).token, name))
    expect(answers.slice(0, MAX).every((a) => 'result' in a)).toBe(true)
    expect(answers[MAX]).toMatchObject({ error: { message: expect.stringMatching(/at most 5 machines/) } })
    expect((await listed(carol)).map((m) => m.id).sort()).toEqual(names.slice(0, MAX))
    // Disconnecting one makes room.
    expect((await carol.delete('/_agent-native/machines/m1')).status).toBe(204)
    expect(await register((await token(carol, 'm7')).token, 'm7')).toHaveProperty('result')
  }, 60_000)
})

describe('an account opened by someone else', () => {
  it('an owner who makes a reset link for a person who joined their organisation gets no shell on that person’s computer', async () => {
    // Dora connects her laptop (held by the second instance). Eve owns an organisation of her own
    // (open sign-up), invites Dora, and once Dora has joined makes her a reset link: whoever holds
    // it holds Dora's account, and the laptop runs that account's commands unconfined.
    const dora = app.client()
    const doraUser = await dora.signUp('Dora', 'dora@example.com')
    const eve = app.client()
    const eveUser = await eve.signUp('Eve', 'eve@example.com')
    const { token: tok } = await token(dora, 'Dora laptop')
    const client = connect(tok, { server: other.baseUrl })
    await client.waitFor('is online')
    const command = { command: 'echo served', runId: 'run_handover', timeoutMs: 10_000 }
    expect((await machineProvider.runCommand(doraUser.id, 'dora-laptop', command)).stdout).toBe('served\n')

    const [eveOrg] = await queryRows<{ organization_id: string }>(
      getDb(),
      sql`select organization_id from member where user_id = ${eveUser.id}`,
    )
    const invited = await eve.post('/_agent-native/auth/organization/invite-member', {
      email: 'dora@example.com',
      role: 'member',
      organizationId: eveOrg!.organization_id,
    })
    expect(invited.status, JSON.stringify(invited.body)).toBe(200)
    const joined = await dora.post('/_agent-native/auth/organization/accept-invitation', {
      invitationId: invited.body.id,
    })
    expect(joined.status, JSON.stringify(joined.body)).toBe(200)

    const made = await eve.post(`/_agent-native/members/${doraUser.id}/reset-link`)
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body.machineTokensRevoked).toBe(1)
    await client.waitFor('revoked')
    await exited(client)
    await expect(machineProvider.runCommand(doraUser.id, 'dora-laptop', command)).rejects.toMatchObject({
      status: expect.any(Number),
    })
    // The token cannot connect again: Dora makes a new one once she has her account back.
    expect((await dora.get('/_agent-native/machines')).body.tokens).toEqual([])
  }, 60_000)
})
