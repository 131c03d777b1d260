/**
 * A run cancelled, or a chat turn stopped, in the middle of a model call has paid for that call:
 * the provider read it (its input is billed) and billed what it streamed. Before decision 0533 the
 * run's tokens and cost, and the budget's count, kept only the finished steps, and the call's hold
 * was dropped: a script that cancels each run during its (large) last call spent without it being
 * counted. Now the call counts: the input the provider reported as its answer began, else the
 * request's size at four characters a token. The fake model holds the call open while the test
 * cancels, on the deployment's key, whose daily budget the test reads.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { estimateCostUsd } from '#server/agent/pricing.ts'
import { queryRows } from '#server/db/sql.ts'
import { sumDeploymentKeySpendToday } from '#server/runs/deployment-budget.ts'
import { roundUsd } from '#server/runs/usage.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse, type FakeRequest } from '#tests/support/fake-anthropic.ts'
import { eventually, POLL } from '#tests/support/poll.ts'

let agent: AgentApp
beforeAll(async () => {
  // Heartbeat far away: a cancel reaches the run through the jobs-changed notification.
  agent = await startAgentApp({ key: 'sk-ant-stopped-call-0533', scheduler: { leaseMs: 600_000 } })
})
afterAll(() => agent?.close())

const J = '/_agent-native/jobs'
const SONNET = { provider: 'anthropic', modelId: 'claude-sonnet-4-5' } as const
const price = (inputTokens: number, outputTokens: number) =>
  estimateCostUsd(SONNET, { inputTokens, outputTokens })!
/** A request's input counted unanswered: its body at four characters a token. */
const bodyTokens = (request: FakeRequest) => Math.ceil(request.bodyChars / 4)
const spentToday = () => sumDeploymentKeySpendToday(agent.app.server.db.db)

const requestsFor = (token: string) =>
  agent.fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes(token))

/** Starts a job whose model calls answer `replies` in turn; returns its run's id once `calls` were made. */
async function startRun(token: string, calls: number, ...replies: Parameters<AgentApp['fake']['reply']>) {
  const c = agent.team.creator.client
  agent.fake.replyWhen(token, ...replies)
  const made = await c.post(J, {
    name: token.toLowerCase(),
    scope: 'personal',
    schedule: '0 7 1 1 *',
    instructions: `Check the time for ${token}.`,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  const started = await c.post(`${J}/${made.body.job.id}/run`)
  expect(started.status).toBe(202)
  await eventually(`call ${calls} of the run`, () => requestsFor(token).length === calls)
  return started.body.run.id as string
}

async function cancel(runId: string, token: string) {
  const c = agent.team.creator.client
  expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
  await eventually('the model call to be aborted', () => requestsFor(token).some((r) => r.aborted))
}

/** The run's usage and status as its page reads them, once they are `expected`. */
const runUsage = (runId: string, expected: Record<string, unknown>) =>
  vi.waitFor(async () => {
    const { run } = (await agent.team.creator.client.get(`/_agent-native/runs/${runId}`)).body
    expect({ ...run.usage, status: run.status }).toMatchObject(expected)
  }, POLL)

describe('a run cancelled in the middle of a model call', () => {
  it("counts the call's input, from the request's size, in its tokens, its cost and the day's budget", async () => {
    const before = await spentToday()
    // Step one (12 in, 7 out) checks the clock; the second call is never answered.
    const runId = await startRun('HELD-BODY', 2, toolUse('clock', {}), { hang: true })
    await runUsage(runId, { inputTokens: 12, status: 'running' })
    await cancel(runId, 'HELD-BODY')
    const held = requestsFor('HELD-BODY')[1]!
    const cost = roundUsd(price(12, 7) + price(bodyTokens(held), 0))
    // Before, it kept step one's 12 in and 7 out, and the budget only step one's cost.
    await runUsage(runId, {
      status: 'cancelled',
      inputTokens: 12 + bodyTokens(held),
      outputTokens: 7,
      costUsd: cost,
      model: 'anthropic:claude-sonnet-4-5',
    })
    await expect.poll(async () => roundUsd((await spentToday()) - before)).toBe(cost)
  })

  it('counts the input the provider reported once its answer began, even in its first call', async () => {
    const before = await spentToday()
    // The answer's head says 50,000 tokens in ($0.15); nothing comes after it.
    const started = { input_tokens: 50_000, output_tokens: 1 }
    const runId = await startRun('HELD-STARTED', 1, { hang: true, started })
    await eventually('the answer to begin', () => requestsFor('HELD-STARTED')[0]?.usage)
    await cancel(runId, 'HELD-STARTED')
    const cost = roundUsd(price(50_000, 1))
    // Before, a run cancelled in its first call recorded nothing at all, and the budget nothing.
    await runUsage(runId, { status: 'cancelled', inputTokens: 50_000, outputTokens: 1, costUsd: cost })
    await expect.poll(async () => roundUsd((await spentToday()) - before)).toBe(cost)
  })
})

describe('a chat turn stopped in the middle of a model call', () => {
  it("counts the call's input in the turn's record and the day's budget", async () => {
    const { member } = agent.team
    const before = await spentToday()
    const prompt = 'HELD-CHAT: a long answer'
    agent.fake.replyWhen(prompt, { hang: true })
    const turn = sendChat(member.client, { message: userText(prompt) })
    await eventually('the model call', () => requestsFor(prompt).length === 1)
    const [thread] = await queryRows<{ id: string }>(
      agent.app.server.db.db,
      sql`select thread_id as id from agent_messages where parts::text like ${`%${prompt}%`}`,
    )
    const stopped = await member.client.post(`/_agent-native/agent/threads/${thread!.id}/stop`)
    expect(stopped.status).toBe(200)
    expect((await turn).status).toBe(200)
    const input = bodyTokens(requestsFor(prompt)[0]!)
    const cost = roundUsd(price(input, 0))
    // Before, the stopped turn was recorded with 0 tokens and $0, and its hold was dropped.
    const recorded = await eventually('the turn settled', async () => {
      const [row] = await queryRows<{ input_tokens: number; cost_usd: string; reserved_usd: string }>(
        agent.app.server.db.db,
        sql`select input_tokens, cost_usd, reserved_usd from chat_turns where user_id = ${member.id}`,
      )
      return row && Number(row.reserved_usd) === 0 ? row : undefined
    })
    expect({ input: recorded.input_tokens, cost: Number(recorded.cost_usd) }).toEqual({ input, cost })
    expect(roundUsd((await spentToday()) - before)).toBe(cost)
  })
})
