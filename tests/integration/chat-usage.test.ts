/**
 * Settings → Usage showed what runs cost but not chat: every turn was recorded with its tokens and
 * cost (chat_turns, decision 0454), yet `GET /usage` had no dollars for it. Now the report carries
 * `chat`: turns, tokens and cost over the same days, in total, per person and per key source, only
 * the caller's organisation's turns, and an unpriced model's cost as unknown (null), not zero.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChatUsage } from '#server/runs/chat-usage.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-chat-usage' })
})
afterAll(() => agent?.close())

async function chat(client: AgentApp['team']['member']['client'], text: string) {
  const turn = await sendChat(client, { message: userText(text) })
  expect(turn.status).toBe(200)
}

describe('GET /usage', () => {
  it("sums the organisation's chat turns per person and per key, and leaves other organisations' out", async () => {
    const { admin, member, outsider } = agent.team
    const before = (await admin.client.get('/_agent-native/usage')).body.chat
    const none = { turns: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedTurns: 0 }
    expect(before).toEqual({
      total: none,
      byPerson: [],
      byKeySource: [],
      byDay: Array.from({ length: 30 }, () => ({ day: expect.any(String), ...none })),
    })
    // On claude-sonnet-4-5 ($3 in, $15 out per million): $0.45 and $0.90.
    agent.fake.replyWhen('admin asks', {
      text: 'ok',
      usage: { input_tokens: 100_000, output_tokens: 10_000 },
    })
    agent.fake.replyWhen('member asks', {
      text: 'ok',
      usage: { input_tokens: 200_000, output_tokens: 20_000 },
    })
    // Another organisation's turn ($0.45 + $0.225), which would show in every sum were it counted.
    agent.fake.replyWhen('outsider asks', {
      text: 'ok',
      usage: { input_tokens: 150_000, output_tokens: 15_000 },
    })
    await chat(admin.client, 'admin asks')
    await chat(member.client, 'member asks')
    await chat(outsider.client, 'outsider asks')
    // A turn on a model with no known price ended with tokens and a null cost. The chat's model is
    // the server's AGENT_MODEL, fixed for this file's server, so the turn is written as chat-turns.ts
    // settles one.
    await agent.app.server.db.db.execute(
      sql`insert into chat_turns (id, org_id, user_id, key_source, input_tokens, output_tokens, cost_usd)
          values ('unpriced-turn', ${agent.team.orgId}, ${member.id}, 'personal', 10, 3, null)`,
    )
    const res = await admin.client.get('/_agent-native/usage?days=7')
    expect(res.status).toBe(200)
    const chatUsage = res.body.chat as ChatUsage
    expect(chatUsage.total).toEqual({
      turns: 3,
      inputTokens: 300_010,
      outputTokens: 30_003,
      costUsd: 1.35,
      unpricedTurns: 1,
    })
    const onDeploymentKey = {
      turns: 2,
      inputTokens: 300_000,
      outputTokens: 30_000,
      costUsd: 1.35,
      unpricedTurns: 0,
    }
    expect(chatUsage.byPerson).toEqual([
      expect.objectContaining({
        userId: member.id,
        name: member.name,
        turns: 2,
        inputTokens: 200_010,
        outputTokens: 20_003,
        costUsd: 0.9,
        unpricedTurns: 1,
      }),
      expect.objectContaining({
        userId: admin.id,
        turns: 1,
        inputTokens: 100_000,
        costUsd: 0.45,
        unpricedTurns: 0,
      }),
    ])
    expect(chatUsage.byKeySource).toEqual([
      { keySource: 'deployment', ...onDeploymentKey },
      { keySource: 'personal', turns: 1, inputTokens: 10, outputTokens: 3, costUsd: null, unpricedTurns: 1 },
    ])
    // The outsider's turn is theirs alone: not in this organisation's report, only in their own.
    expect(chatUsage.byPerson.map((p) => p.userId)).not.toContain(outsider.id)
    const theirs = (await outsider.client.get('/_agent-native/usage')).body.chat as ChatUsage
    expect(theirs.byPerson).toEqual([
      expect.objectContaining({ userId: outsider.id, turns: 1, inputTokens: 150_000, costUsd: 0.675 }),
    ])
    expect(theirs.byDay.at(-1)).toMatchObject({ turns: 1, inputTokens: 150_000, costUsd: 0.675 })
  })

  it("has one entry per day of the window, today's turns on today, an unpriced day's cost unknown, and no other organisation's turns", async () => {
    const { admin, member } = agent.team
    // Two days ago, a turn on a model with no known price, and nothing priced that day.
    await agent.app.server.db.db.execute(
      sql`insert into chat_turns (id, org_id, user_id, key_source, started_at, input_tokens, output_tokens, cost_usd)
          values ('unpriced-old-turn', ${agent.team.orgId}, ${member.id}, 'personal', now() - interval '2 days', 7, 2, null)`,
    )
    const res = await admin.client.get('/_agent-native/usage?days=7')
    expect(res.status).toBe(200)
    const { byDay } = res.body.chat as ChatUsage
    expect(byDay).toHaveLength(7)
    expect(byDay.map((d) => d.day)).toEqual([...byDay.map((d) => d.day)].sort())
    // Today: the admin's and the member's turns and the unpriced one, not the outsider's 150,000.
    expect(byDay[6]).toMatchObject({
      turns: 3,
      inputTokens: 300_010,
      outputTokens: 30_003,
      costUsd: 1.35,
      unpricedTurns: 1,
    })
    expect(byDay[4]).toMatchObject({
      turns: 1,
      inputTokens: 7,
      outputTokens: 2,
      costUsd: null,
      unpricedTurns: 1,
    })
    for (const d of [byDay[0], byDay[1], byDay[2], byDay[3], byDay[5]]) {
      expect(d).toMatchObject({ turns: 0, inputTokens: 0, costUsd: 0, unpricedTurns: 0 })
    }
  })
})
