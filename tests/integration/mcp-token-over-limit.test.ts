/**
 * A token past its rate limit, flooding the MCP endpoint (outside review of the MCP server). Each
 * use is counted in one UPDATE of the token's row so the limit holds across instances, and a
 * refused request made that write too: a client sending at any rate made the server write at that
 * rate. Now an instance that has refused a token remembers it until its window ends and answers
 * the next requests 429 without the database; the count stays the only thing that admits one.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getDb } from '#server/db/client.ts'
import { accessTokens } from '#server/db/schema/index.ts'
import { checkAccessToken } from '#server/tokens/access-tokens.ts'
import { OverLimitTokens } from '#server/tokens/over-limit.ts'
import { mcpPing } from '#tests/support/mcp-ping.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const LIMIT = 5

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp({ env: { MCP_RATE_LIMIT_PER_MINUTE: String(LIMIT) } })
  team = await createTeam(app)
})
afterAll(() => app?.close())

async function makeToken(): Promise<{ token: string; id: string }> {
  const made = await team.member.client.post('/_agent-native/access-tokens', {
    name: 'flood',
    scopes: ['jobs:read'],
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return { token: made.body.token, id: made.body.summary.id }
}

/** A ping with `token` (the address header is not trusted here, so it is only a header). */
const ping = async (token: string) => {
  const answer = await mcpPing(app.baseUrl, token, '203.0.113.40')
  return { ...answer, retryAfter: Number(answer.retryAfter) }
}

const windowCount = async (id: string) =>
  (
    await getDb().select({ n: accessTokens.windowCount }).from(accessTokens).where(eq(accessTokens.id, id))
  )[0]!.n

it('a client flooding with a token over its limit is refused without a write per request', async () => {
  const { token, id } = await makeToken()
  for (let i = 0; i < LIMIT; i++) expect((await ping(token)).status).toBe(200)
  const refusals = []
  for (let i = 0; i < 20; i++) refusals.push(await ping(token))
  expect(refusals.map((r) => r.status)).toEqual(Array(20).fill(429))
  // The first refusal counted; the 19 after it did not touch the row (unfixed: 25).
  expect(await windowCount(id)).toBe(LIMIT + 1)
  // The answer is the same as the first refusal's, and Retry-After counts down the same window.
  const [first, ...rest] = refusals
  expect(JSON.parse(first!.body).error.code).toBe('rate_limited')
  for (const r of rest) expect(r.body).toBe(first!.body)
  const waits = refusals.map((r) => r.retryAfter)
  for (const wait of waits) expect(wait >= 1 && wait <= 60, String(wait)).toBe(true)
  expect([...waits].sort((a, b) => b - a)).toEqual(waits)
})

it('another instance still refuses the token from the database count, and writes once', async () => {
  const { token, id } = await makeToken()
  for (let i = 0; i <= LIMIT; i++) await ping(token)
  expect(await windowCount(id)).toBe(LIMIT + 1)
  // An instance that has not refused the token yet: it has only the database to go by.
  const other = new OverLimitTokens()
  for (let i = 0; i < 5; i++) {
    const check = await checkAccessToken(token, LIMIT, getDb(), other)
    expect(check).toMatchObject({ ok: false, reason: 'rate_limited' })
  }
  expect(await windowCount(id)).toBe(LIMIT + 2)
})

it('a token refused as not valid is not remembered: a revoked one is looked up each time', async () => {
  const { token, id } = await makeToken()
  expect((await team.member.client.delete(`/_agent-native/access-tokens/${id}`)).status).toBeLessThan(300)
  const memory = new OverLimitTokens()
  for (let i = 0; i < 3; i++)
    expect(await checkAccessToken(token, LIMIT, getDb(), memory)).toEqual({ ok: false, reason: 'invalid' })
  expect(memory.size).toBe(0)
  expect((await ping(token)).status).toBe(401)
})
