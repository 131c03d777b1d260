/**
 * Guessing machine tokens at the machine endpoint, written as the attack: each made-up `cwm_` token
 * cost a hash and a database update, at whatever rate a client opened connections, while the
 * MCP endpoint already answered a guesser 429 (decision 0417). Refused tokens are now counted per
 * client address at both doors together (decision 0431). Each test failed before: every upgrade
 * was a 401, however many came.
 */
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadClient, startClient, type MachineClient } from '#tests/support/machine-client.ts'
import { mcpPing } from '#tests/support/mcp-ping.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

/** Refused tokens a client may present in a minute (server/tokens/guess-limit.ts). */
const ALLOWED = 20

const machineGuess = () => `cwm_${randomBytes(32).toString('base64url')}`
const accessGuess = () => `cwp_${randomBytes(32).toString('base64url')}`

let app: TestApp
let team: Team
const sockets: WebSocket[] = []
let client: MachineClient | undefined

beforeAll(async () => {
  app = await startTestApp({ env: { AUTH_RATE_LIMIT: 'true', TRUST_PROXY: 'loopback' } })
  team = await createTeam(app)
})
afterAll(async () => {
  await client?.kill()
  for (const ws of sockets) ws.terminate()
  await app?.close()
})

type Answer = { status: number; retryAfter?: string | null; code?: string }

/**
 * An upgrade to the machine endpoint with `token`, from the client at `ip` (behind a trusted
 * proxy), or from this process's own address.
 */
function connect(token: string, ip?: string): Promise<Answer> {
  const ws = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/_agent-native/machines/connect`, {
    headers: { authorization: `Bearer ${token}`, ...(ip ? { 'x-forwarded-for': ip } : {}) },
  })
  sockets.push(ws)
  ws.on('error', () => {})
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ status: 101 }))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          retryAfter: res.headers['retry-after'] ?? null,
          code: (JSON.parse(body) as { error: { code: string } }).error.code,
        }),
      )
    })
  })
}

async function machineToken(name: string): Promise<string> {
  const made = await team.member.client.post('/_agent-native/machines/tokens', { name })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return made.body.token
}

describe('a client guessing machine tokens', () => {
  it('is answered 429 with retry-after once 20 of its tokens were refused in a minute, even with a real one', async () => {
    const real = await machineToken('laptop')
    const statuses: number[] = []
    for (let i = 0; i < ALLOWED; i++) statuses.push((await connect(machineGuess(), '203.0.113.31')).status)
    expect(statuses).toEqual(Array(ALLOWED).fill(401))
    const limited = await connect(machineGuess(), '203.0.113.31')
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60)
    // Limited, it is refused before its token is looked up: a real token is not used either.
    expect((await connect(real, '203.0.113.31')).status).toBe(429)
    const tokens = (await team.member.client.get('/_agent-native/machines')).body.tokens as {
      name: string
      lastUsedAt: string | null
    }[]
    expect(tokens.find((t) => t.name === 'laptop')?.lastUsedAt).toBeNull()
    // Another client is not affected.
    expect((await connect(real, '198.51.100.31')).status).toBe(101)
  })

  it('counts its refused tokens at the MCP endpoint and the machine endpoint together', async () => {
    for (let i = 0; i < ALLOWED / 2; i++) {
      expect((await mcpPing(app.baseUrl, accessGuess(), '203.0.113.32')).status).toBe(401)
      expect((await connect(machineGuess(), '203.0.113.32')).status).toBe(401)
    }
    expect((await connect(machineGuess(), '203.0.113.32')).status).toBe(429)
    expect((await mcpPing(app.baseUrl, accessGuess(), '203.0.113.32')).status).toBe(429)
  })

  it('tells the real client why, and it waits as long as it was told before it tries again', async () => {
    // The client logged "the server answered 429" and tried again after half a second, doubling
    // from there: its owner could not tell a limit from a fault, and it knocked while limited.
    // Refused 20 times from this process's address, then once more, which it is answered 429 for.
    for (let i = 0; i <= ALLOWED; i++) await connect(machineGuess())
    const real = await machineToken('desktop')
    client = startClient(await downloadClient(app.baseUrl), [
      '--server',
      app.baseUrl,
      '--token',
      real,
      '--dir',
      '.',
    ])
    await client.waitFor(/reconnecting in/)
    const said = client.output()
    const limit =
      /the server answered 429: Too many refused tokens from your address; try again in (\d+) s/.exec(said)
    expect(limit, said).not.toBeNull()
    const wait = /disconnected; reconnecting in ([\d.]+) s/.exec(said)
    expect(Number(wait![1])).toBe(Number(limit![1]))
    expect(Number(wait![1])).toBeGreaterThanOrEqual(1)
  })
})
