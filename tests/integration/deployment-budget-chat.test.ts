/**
 * The server's daily budget on its own model key (DEPLOYMENT_KEY_MAX_USD_PER_DAY, decision 0455)
 * binds a chat turn too: it stops before the step after the one that reaches it, and says why in
 * the chat. Before, a turn on that key went on for all twelve of its steps. (Runs:
 * deployment-budget.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-budget-chat-0455'
/** 100k input + 10k output tokens on claude-sonnet-4-5: $0.30 + $0.15 = $0.45 a call. */
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }
const clockSteps = (n: number) =>
  Array.from({ length: n }, () => ({ ...toolUse('clock', {}), usage: pricey }))

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    env: { DEPLOYMENT_KEY_MAX_USD_PER_DAY: '1', DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10' },
  })
}, 120_000)
afterAll(() => agent?.close())

describe('a chat turn on the deployment key', () => {
  it("stops before the step after the one that reaches the server's daily budget, and says why", async () => {
    agent.fake.replyWhen('keep asking the clock', ...clockSteps(12))
    const turn = await sendChat(agent.team.member.client, { message: userText('keep asking the clock') })
    expect(turn.status).toBe(200)
    expect(agent.fake.requests).toHaveLength(3)
    expect(turn.chunks).toContainEqual({
      type: 'error',
      errorText: expect.stringMatching(
        /Stopped after step 3\. Paused: this server's daily budget of \$1\.00 for its own model key is reached \(\$1\.35 spent/,
      ),
    })
  })
})
