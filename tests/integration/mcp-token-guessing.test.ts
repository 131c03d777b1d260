/**
 * Guessing personal access tokens at the MCP endpoint (decision 0417): each made-up `cwp_` token
 * cost a hash and a database lookup, at whatever rate a client sent them. Failed token checks are
 * now limited per client address, on one instance and across instances on one database, as the
 * sign-in limit is. Each test failed before the fix.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mcpPing as ping } from '#tests/support/mcp-ping.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'
import { twoInstancesOnOneDatabase } from '#tests/support/two-instances.ts'

/** Failed token checks a client may make in a minute (server/tokens/guess-limit.ts). */
const ALLOWED = 20

const guess = () => `cwp_${randomBytes(32).toString('base64url')}`

describe('on one instance', () => {
  let app: TestApp
  let team: Team
  let token: string
  let tokenId: string
  beforeAll(async () => {
    app = await startTestApp({ env: { AUTH_RATE_LIMIT: 'true', TRUST_PROXY: 'loopback' } })
    team = await createTeam(app)
    const made = await team.member.client.post('/_agent-native/access-tokens', {
      name: 'laptop',
      scopes: ['jobs:read'],
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    ;({ token } = made.body)
    tokenId = made.body.summary.id
  })
  afterAll(() => app?.close())

  it('a client guessing tokens is answered 429 with retry-after once it has failed 20 times in a minute', async () => {
    const statuses: number[] = []
    for (let i = 0; i < ALLOWED; i++) statuses.push((await ping(app.baseUrl, guess(), '203.0.113.21')).status)
    expect(statuses).toEqual(Array(ALLOWED).fill(401))
    const limited = await ping(app.baseUrl, guess(), '203.0.113.21')
    expect(limited.status).toBe(429)
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60)
    expect(JSON.parse(limited.body).error.code).toBe('rate_limited')
    // Limited, it is refused before its token is looked up: even a real token is not used.
    expect((await ping(app.baseUrl, token, '203.0.113.21')).status).toBe(429)
    const listed = (await team.member.client.get('/_agent-native/access-tokens')).body.tokens
    expect(listed.find((t: { id: string }) => t.id === tokenId).lastUsedAt).toBeNull()
    // Another client is not affected.
    expect((await ping(app.baseUrl, token, '198.51.100.21')).status).toBe(200)
    expect((await ping(app.baseUrl, guess(), '198.51.100.21')).status).toBe(401)
  })

  it('counts a client’s IPv6 addresses by their /64', async () => {
    for (let i = 0; i < ALLOWED; i++) {
      expect((await ping(app.baseUrl, guess(), `2001:db8:7:7::${(i + 1).toString(16)}`)).status).toBe(401)
    }
    expect((await ping(app.baseUrl, guess(), '2001:db8:7:7::ffff')).status).toBe(429)
    expect((await ping(app.baseUrl, guess(), '2001:db8:7:8::1')).status).toBe(401)
  })
})

describe('across two instances on one database', () => {
  const servers = twoInstancesOnOneDatabase()

  it('a client spreading its guesses over both is limited after 20 in all, on either', async () => {
    const statuses: number[] = []
    // Alternate instances, as a load balancer would.
    for (let i = 0; i < ALLOWED + 2; i++) {
      statuses.push((await ping((i % 2 ? servers.b() : servers.a()).baseUrl, guess(), '203.0.113.22')).status)
    }
    expect(statuses.slice(0, ALLOWED)).toEqual(Array(ALLOWED).fill(401))
    expect(statuses.slice(ALLOWED)).toEqual([429, 429])
    expect((await ping(servers.b().baseUrl, guess(), '198.51.100.22')).status).toBe(401)
  }, 60_000)
})
