/**
 * The server's own model key had limits per organisation (runs and chat turns a day, a cap per run
 * or turn) but none in total, and with open sign-up anyone can make another organisation: the
 * operator's bill had no bound. Now every run and chat turn on that key, of every organisation,
 * counts towards DEPLOYMENT_KEY_MAX_USD_PER_DAY over a rolling 24 hours: a run or a turn stops
 * before its next step once the day's spend reaches it, and none starts until it falls below
 * (decision 0455).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readModelChoice } from '#server/agent/model.ts'
import { modelGrant } from '#server/agent/harness-grant.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { pausedJob, runNow } from '#tests/support/runs.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const J = '/_agent-native/jobs'
const KEY = 'sk-ant-deployment-budget-0455'
// The budget binds here, not the cap per run or turn.
const env = { DEPLOYMENT_KEY_MAX_USD_PER_DAY: '1', DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10' }

/** 100k input + 10k output tokens on claude-sonnet-4-5: $0.30 + $0.15 = $0.45 a call. */
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }
const clockSteps = (n: number) =>
  Array.from({ length: n }, () => ({ ...toolUse('clock', {}), usage: pricey }))
const BUDGET_REACHED =
  /this server's daily budget of \$1\.00 for its own model key is reached \(\$1\.35 spent/

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env, scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

describe('a run on the deployment key', () => {
  // (a chat turn stopped the same way: deployment-budget-chat.test.ts)
  it("stops before the step after the one that reaches the server's daily budget", async () => {
    const jobId = await pausedJob(agent.team.admin.client, 'spender')
    agent.fake.replyWhen('Do spender.', ...clockSteps(24))
    const { run } = await runNow(agent.team.admin.client, jobId)
    // $0.45, $0.90, then $1.35 reaches the $1 budget: no fourth call (before: all 24 steps).
    expect(agent.fake.requests).toHaveLength(3)
    expect(run.error).toMatch(new RegExp(`Stopped after step 3\\. Paused: ${BUDGET_REACHED.source}`))
  })

  it('then starts nothing on that key, in any organisation, and stores nothing for it', async () => {
    const jobId = await pausedJob(agent.team.outsider.client, 'elsewhere')
    const before = await snapshotTables(agent.app.server.db)
    const runNowAnswer = await agent.team.outsider.client.post(`${J}/${jobId}/run`)
    expect(runNowAnswer.status).toBe(429)
    expect(runNowAnswer.body.error.message).toMatch(BUDGET_REACHED)
    const chat = await sendChat(agent.team.outsider.client, { message: userText('hello') })
    expect(chat.status).toBe(429)
    expect(chat.error?.message).toMatch(BUDGET_REACHED)
    expect(await snapshotTables(agent.app.server.db)).toEqual(before)
  })

  it("refuses a harness's next call on that key, as its endpoint asks before each", async () => {
    const grant = modelGrant(
      { choice: readModelChoice(), keySource: 'deployment', apiKey: KEY, fetch },
      { orgId: agent.team.orgId, cap: null },
    )
    expect(await grant.admit!(0, 0)).toMatch(BUDGET_REACHED)
  })
})
