/**
 * A model key is checked with the provider when it is saved (decision 0514): the server lists the
 * provider's models with it, for free. A 401 is a 400 naming `apiKey` and stores or changes
 * nothing (a key saved before stays, its refusal too); any other outcome saves the key and says it
 * could not be checked, and why. Real HTTP, real Postgres, the fake Messages API (which answers 401
 * to any key but the deployment's and those a test lets it take, as the real one does a key that
 * is no key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'

const KEY = 'sk-ant-deployment-key-check'
const GOOD = 'sk-ant-a-working-key-1111111111'
const MISTYPED = 'sk-ant-a-mistyped-key-2222222222'
const MODEL_KEYS = '/_agent-native/model-keys'
const REFUSED = /^apiKey: Anthropic refused this key \(401: invalid x-api-key\)$/

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
}, 240_000)
afterAll(() => agent?.close())

const save = (client: ApiClient, body: Record<string, string>) =>
  client.request('PUT', MODEL_KEYS, { scope: 'personal', ...body })
const listed = async (client: ApiClient) => (await client.get<{ keys: unknown[] }>(MODEL_KEYS)).body.keys

describe('a key the provider refuses when it is saved', () => {
  it('is a 400 naming apiKey, and nothing is stored', async () => {
    const client = agent.team.member.client
    const before = agent.fake.listings.length
    const res = await save(client, { apiKey: MISTYPED })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'bad_request', field: 'apiKey' })
    expect(res.body.error.message).toMatch(REFUSED)
    expect(await listed(client)).toEqual([])
    // It asked the provider once, with the key, as the Models API wants it.
    expect(agent.fake.listings.slice(before)).toEqual([
      {
        url: '/v1/models?limit=1',
        headers: expect.objectContaining({ 'x-api-key': MISTYPED, 'anthropic-version': '2023-06-01' }),
      },
    ])
  })

  it('leaves a key saved before as it was, its refusal too', async () => {
    const client = agent.team.creator.client
    agent.fake.acceptKey(GOOD)
    expect((await save(client, { apiKey: GOOD })).status).toBe(200)
    // Revoked after it was saved: the first chat on it records the refusal (decision 0505).
    agent.fake.revokeKey(GOOD)
    await sendChat(client, { message: userText('hello on a revoked key') })
    const stored = await listed(client)
    expect(stored).toEqual([
      expect.objectContaining({
        masked: '••••1111',
        refused: expect.objectContaining({ reason: expect.any(String) }),
      }),
    ])

    const res = await save(client, { apiKey: MISTYPED })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(REFUSED)
    expect(await listed(client)).toEqual(stored)
  })
})

describe('a key the provider takes', () => {
  it('is saved, and the answer says it was checked', async () => {
    const client = agent.team.admin.client
    agent.fake.acceptKey(GOOD)
    const res = await save(client, { apiKey: GOOD })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      key: expect.objectContaining({ scope: 'personal', masked: '••••1111', refused: null }),
      check: { ok: true },
    })
  })
})

describe('a key the provider could not be asked about', () => {
  it('is saved when the provider fails, and the answer says why it was not checked', async () => {
    const client = agent.team.admin.client
    const key = 'sk-ant-saved-in-an-outage-3333333333'
    agent.fake.failKey(key, { status: 500, errorType: 'api_error', message: 'Internal server error' })
    const res = await save(client, { apiKey: key })
    expect(res.status).toBe(200)
    expect(res.body.check).toEqual({ ok: false, reason: 'Anthropic answered 500: Internal server error' })
    expect(await listed(client)).toEqual([expect.objectContaining({ masked: '••••3333', refused: null })])
  })

  it('is saved on a 403, without the key in what the provider said', async () => {
    const client = agent.team.admin.client
    const key = 'sk-ant-a-limited-key-4444444444'
    agent.fake.failKey(key, { status: 403, errorType: 'permission_error', message: `${key} may not list` })
    const res = await save(client, { apiKey: key })
    expect(res.status).toBe(200)
    expect(res.body.check).toEqual({ ok: false, reason: 'Anthropic answered 403: •••• may not list' })
  })

  it('is saved for an OpenAI-compatible server the deployment does not name', async () => {
    const res = await save(agent.team.admin.client, { provider: 'openai-compatible', apiKey: GOOD })
    expect(res.status).toBe(200)
    expect(res.body.check).toEqual({
      ok: false,
      reason: 'the server has no OPENAI_COMPATIBLE_BASE_URL to ask',
    })
  })

  it('is saved unchecked past ten checks a minute, without asking the provider', async () => {
    const client = agent.team.owner.client
    for (let i = 0; i < 10; i++) {
      const res = await save(client, { apiKey: `${MISTYPED}-${i}` })
      expect(res.status, `check ${i}`).toBe(400)
    }
    const before = agent.fake.listings.length
    const res = await save(client, { apiKey: MISTYPED })
    expect(res.status).toBe(200)
    expect(res.body.check).toEqual({
      ok: false,
      reason: expect.stringMatching(/10 keys checked in the last minute/),
    })
    expect(agent.fake.listings.length).toBe(before)
  })

  // Last: the provider is gone from here on.
  it('is saved when the provider cannot be reached', async () => {
    await agent.fake.close()
    const res = await save(agent.team.admin.client, { apiKey: 'sk-ant-saved-offline-5555555555' })
    expect(res.status).toBe(200)
    expect(res.body.check).toEqual({
      ok: false,
      reason: 'Anthropic could not be reached (ECONNREFUSED)',
    })
  })
})
