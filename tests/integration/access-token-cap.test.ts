/**
 * The MCP server's rate limit is counted per token. A member's script that makes itself tokens
 * without end multiplies it (100 tokens, 100 × the limit) and grows the tokens table without bound.
 * A person has at most MAX_LIVE_ACCESS_TOKENS live tokens in an organisation (decision 0380), also
 * when the requests for them race.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

/** The ceiling (MAX_LIVE_ACCESS_TOKENS), written out: the attack is the same whatever the code says. */
const MAX_LIVE_ACCESS_TOKENS = 20

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
})
afterAll(() => app?.close())

const T = '/_agent-native/access-tokens'

describe('a member who makes access tokens without end', () => {
  it(`gets ${MAX_LIVE_ACCESS_TOKENS} live ones at most, however many requests race for them`, async () => {
    const member = team.member.client
    const tries = MAX_LIVE_ACCESS_TOKENS + 15
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) => member.post(T, { name: `script ${i}`, scopes: ['jobs:read'] })),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_LIVE_ACCESS_TOKENS)
    expect(statuses.filter((s) => s === 409)).toHaveLength(tries - MAX_LIVE_ACCESS_TOKENS)
    const refused = answers.find((a) => a.status === 409)!
    expect(refused.body.error.message).toMatch(/revoke one/)
    expect((await member.get(T)).body.tokens).toHaveLength(MAX_LIVE_ACCESS_TOKENS)

    // Revoking one makes room for one; another person's tokens are theirs to count.
    const first = (await member.get(T)).body.tokens[0] as { id: string }
    expect((await member.delete(`${T}/${first.id}`)).status).toBe(204)
    expect((await member.post(T, { name: 'after revoking', scopes: ['jobs:read'] })).status).toBe(201)
    expect((await member.post(T, { name: 'one too many', scopes: ['jobs:read'] })).status).toBe(409)
    expect((await team.creator.client.post(T, { name: 'mine', scopes: ['jobs:read'] })).status).toBe(201)
  })
})
