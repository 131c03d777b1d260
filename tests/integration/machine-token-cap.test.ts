/**
 * A machine token is a row per token, and nothing limited how many a person could make: a member's
 * script that asked for tokens in a loop grew the machine tokens table without end, on a database
 * every organisation shares. A person holds at most MAX_LIVE_MACHINE_TOKENS live machine tokens
 * (decision 0382), also when the requests for them race.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

/** The ceiling, written out: the attack is the same whatever the code says. */
const MAX_LIVE_MACHINE_TOKENS = 20

let app: TestApp
let mallory: ApiClient
let bob: ApiClient
beforeAll(async () => {
  app = await startTestApp()
  mallory = app.client()
  await mallory.signUp('Mallory', 'mallory-tokens@example.com')
  bob = app.client()
  await bob.signUp('Bob', 'bob-tokens@example.com')
})
afterAll(() => app?.close())

const T = '/_agent-native/machines/tokens'
const liveTokens = async (client: ApiClient) =>
  (await client.get('/_agent-native/machines')).body.tokens as { id: string }[]

describe('a member who makes machine tokens without end', () => {
  it(`gets ${MAX_LIVE_MACHINE_TOKENS} live ones at most, however many requests race for them`, async () => {
    const tries = MAX_LIVE_MACHINE_TOKENS + 15
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) => mallory.post(T, { name: `box ${i}` })),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_LIVE_MACHINE_TOKENS)
    expect(statuses.filter((s) => s === 409)).toHaveLength(tries - MAX_LIVE_MACHINE_TOKENS)
    const refused = answers.find((a) => a.status === 409)!
    expect(refused.body.error.message).toMatch(new RegExp(`${MAX_LIVE_MACHINE_TOKENS}.*revoke one`))
    expect(await liveTokens(mallory)).toHaveLength(MAX_LIVE_MACHINE_TOKENS)

    // Revoking one makes room for one; another person's tokens are theirs to count.
    const [first] = await liveTokens(mallory)
    expect((await mallory.delete(`${T}/${first!.id}`)).status).toBe(204)
    expect((await mallory.post(T, { name: 'after revoking' })).status).toBe(201)
    expect((await mallory.post(T, { name: 'one too many' })).status).toBe(409)
    expect((await bob.post(T, { name: 'mine' })).status).toBe(201)
  })
})
