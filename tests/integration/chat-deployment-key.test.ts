/**
 * Chat on the deployment's model key had no bound at all: runs on it were counted per day and
 * capped per run (decision 0447), but anyone who signed up could chat on the operator's key as
 * often and as long as they liked, twelve model calls a turn whatever they cost. Now a chat turn
 * is recorded with the key it spent, the deployment key's turns are counted per organisation over
 * 24 hours (ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY), and a turn on that key stops after the step
 * that crosses DEPLOYMENT_KEY_MAX_RUN_COST_USD (decision 0454).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const KEY = 'sk-ant-deployment-chat-0454'
const LIMIT = 3

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env: { ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY: String(LIMIT) } })
})
afterAll(() => agent?.close())
beforeEach(() => {
  agent.fake.requests.length = 0
})

/** 100k input + 10k output tokens on claude-sonnet-4-5: $0.30 + $0.15 = $0.45 a call. */
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }

describe('a chat turn on the deployment key', () => {
  it('stops after the model call that crosses the server cap per turn, and says why', async () => {
    // A model that asks for the clock on every call would go on for all twelve steps of a turn.
    agent.fake.replyWhen(
      'keep asking the clock',
      ...Array.from({ length: 12 }, () => ({ ...toolUse('clock', {}), usage: pricey })),
    )
    const turn = await sendChat(agent.team.member.client, { message: userText('keep asking the clock') })
    expect(turn.status).toBe(200)
    // $0.45, $0.90, then $1.35 crosses the default $1 cap: no fourth call.
    expect(agent.fake.requests).toHaveLength(3)
    expect(turn.chunks).toContainEqual({
      type: 'error',
      errorText: expect.stringMatching(/this turn spent \$1\.35, over this server's cap of \$1\.00 per turn/),
    })
    const [row] = await queryRows<{ key_source: string; cost_usd: string; input_tokens: number }>(
      agent.app.server.db.db,
      sql`select key_source, cost_usd, input_tokens from chat_turns where user_id = ${agent.team.member.id}`,
    )
    expect(row).toEqual({ key_source: 'deployment', cost_usd: '1.350000', input_tokens: 300_000 })
  })

  it("counts the organisation's turns a day, then refuses the next with 429 before anything is stored", async () => {
    // The first test's turn is one of the member's organisation's three.
    for (let i = 0; i < LIMIT - 1; i++) {
      const turn = await sendChat(agent.team.admin.client, { message: userText(`hello ${i}`) })
      expect(turn.status).toBe(200)
    }
    const before = await snapshotTables(agent.app.server.db)
    const over = await sendChat(agent.team.creator.client, { message: userText('one more') })
    expect(over.status).toBe(429)
    expect(over.error).toMatchObject({
      code: 'quota_exceeded',
      message: expect.stringMatching(/used its 3 chat turns on the deployment's model key/),
    })
    expect(agent.fake.requests).toHaveLength(LIMIT - 1)
    expect(await snapshotTables(agent.app.server.db)).toEqual(before)
    // Admins see the count beside the organisation's other limits (Settings → Usage).
    const usage = await agent.team.admin.client.get('/_agent-native/usage')
    expect(usage.body.usage.deploymentKeyChatTurns).toEqual({ used: LIMIT, limit: LIMIT, windowHours: 24 })
  })

  it('lets exactly as many turns through as are left when they come at once, and counts each organisation apart', async () => {
    const outsider = agent.team.outsider.client
    const turns = await Promise.all(
      Array.from({ length: 6 }, (_, i) => sendChat(outsider, { message: userText(`at once ${i}`) })),
    )
    expect(turns.map((t) => t.status).sort()).toEqual([200, 200, 200, 429, 429, 429])
  })
})
