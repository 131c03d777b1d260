/**
 * How many times a builtin run's spending is written on its record per step, on a key with a budget
 * (the deployment's daily one, an organisation's monthly one). Each step's tokens and cost reach
 * the run's row in the budget's check before the next call (budget.ts `admitCall`), which then
 * holds that call's worst case: two writes. Before, the step's tokens and cost were written on their
 * own first (run-executor's onStepFinish), then the check wrote the cost again: three. The last
 * step, followed by no check, is written once before the run is settled. A trigger on the real
 * table logs every UPDATE that sets a run's tokens, model, cost or hold.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { estimateCostUsd } from '#server/agent/pricing.ts'
import { queryRows } from '#server/db/sql.ts'
import { deploymentBudgetRefusal } from '#server/runs/deployment-budget.ts'
import { roundUsd } from '#server/runs/usage.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { pausedJob, runNow } from '#tests/support/runs.ts'

const DEPLOYMENT_KEY = 'sk-ant-spend-writes-01'
const ORG_KEY = 'sk-ant-spend-writes-org'
const MODEL = 'anthropic:claude-sonnet-4-5'

let agent: AgentApp
const db = () => agent.app.server.db.db
beforeAll(async () => {
  agent = await startAgentApp({ key: DEPLOYMENT_KEY, anyKey: true, scheduler: true })
  await db().execute(sql`
    create table spend_writes (n bigserial primary key, run_id text, status text, input_tokens int,
      cost_usd numeric)`)
  await db().execute(sql`
    create function log_spend_write() returns trigger language plpgsql as $$
    begin
      insert into spend_writes (run_id, status, input_tokens, cost_usd)
        values (new.id, new.status, new.input_tokens, new.cost_usd);
      return null;
    end $$`)
  await db().execute(sql`
    create trigger log_spend_write after update of input_tokens, output_tokens, model, cost_usd, reserved_usd
      on job_runs for each row execute function log_spend_write()`)
}, 180_000)
afterAll(() => agent?.close())

/** Three steps of 1,000, 2,000 and 3,000 tokens in: two clock checks, then the answer. */
const steps = [
  { ...toolUse('clock', {}), usage: { input_tokens: 1_000, output_tokens: 10 } },
  { ...toolUse('clock', {}), usage: { input_tokens: 2_000, output_tokens: 10 } },
  { text: 'Done.', usage: { input_tokens: 3_000, output_tokens: 10 } },
]
const price = (inputTokens: number) =>
  estimateCostUsd({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, { inputTokens, outputTokens: 10 })!
/** The run's input tokens and cost once each step is counted. */
const counted = [
  { tokens: 1_000, cost: roundUsd(price(1_000)) },
  { tokens: 3_000, cost: roundUsd(price(1_000) + price(2_000)) },
  { tokens: 6_000, cost: roundUsd(price(1_000) + price(2_000) + price(3_000)) },
]

/** Runs job `name` (made with `extra`) on `key`; answers the run and the writes of its spending by step. */
async function writesPerStep(name: string, key: string, extra: Record<string, unknown> = {}) {
  const { admin } = agent.team
  const jobId = await pausedJob(admin.client, name, { scope: 'shared', ...extra })
  agent.fake.replyWhen(`Do ${name}.`, ...steps)
  const { run } = await runNow(admin.client, jobId)
  expect(run.status).toBe('success')
  expect(run.usage).toMatchObject({ inputTokens: 6_000, outputTokens: 30, costUsd: counted[2]!.cost })
  const calls = agent.fake.requests.filter((r) => JSON.stringify(r.body.messages).includes(`Do ${name}.`))
  expect(calls.map((r) => r.headers['x-api-key'])).toEqual([key, key, key])
  const writes = await queryRows<{ status: string; input_tokens: number | null; cost_usd: string | null }>(
    db(),
    sql`select status, input_tokens, cost_usd from spend_writes where run_id = ${run.id} order by n`,
  )
  const running = writes.filter((w) => w.status === 'running')
  // Each step's first write carries its tokens and its cost together, as the run's page shows them.
  for (const { tokens, cost } of counted) {
    const first = running.find((w) => w.input_tokens === tokens)
    expect(Number(first?.cost_usd), `the cost written with ${tokens} tokens`).toBe(cost)
  }
  return {
    runId: run.id as string,
    beforeFirstStep: running.filter((w) => !w.input_tokens).length,
    perStep: counted.map(({ tokens }) => running.filter((w) => w.input_tokens === tokens).length),
    settled: writes.length - running.length,
  }
}

const runRow = async (runId: string) =>
  (
    await queryRows<{ input_tokens: number; output_tokens: number; cost_usd: string; reserved_usd: string }>(
      db(),
      sql`select input_tokens, output_tokens, cost_usd, reserved_usd from job_runs where id = ${runId}`,
    )
  )[0]!

describe("a builtin run's spending on a key with a budget", () => {
  let endedRunId: string

  it("reaches the run's row once per step on the deployment's key, with the check that holds the next call", async () => {
    const { runId, ...writes } = await writesPerStep('deployment-steps', DEPLOYMENT_KEY)
    // Before: 3 per step followed by a check (the step's own write, then the check's two).
    expect(writes).toEqual({ beforeFirstStep: 2, perStep: [2, 2, 1], settled: 1 })
    endedRunId = runId
  })

  it("does the same on the organisation's key under its monthly budget", async () => {
    const { admin } = agent.team
    const key = await admin.client.request('PUT', '/_agent-native/model-keys', {
      scope: 'org',
      apiKey: ORG_KEY,
    })
    expect(key.status).toBe(200)
    expect((await admin.client.patch('/_agent-native/org-settings', { monthlyBudgetUsd: 50 })).status).toBe(
      200,
    )
    const { runId: _, ...writes } = await writesPerStep('org-steps', ORG_KEY, { runAs: 'shared' })
    expect(writes).toEqual({ beforeFirstStep: 2, perStep: [2, 2, 1], settled: 1 })
  })

  it('a check landing after the run ended raises its count as the step write did, never lowers it, holds nothing', async () => {
    const ended = await runRow(endedRunId)
    const check = (soFar: { inputTokens: number; outputTokens: number; costUsd: number | null }) =>
      deploymentBudgetRefusal(
        { kind: 'run', id: endedRunId, soFar: { ...soFar, model: MODEL } },
        0,
        undefined,
        5,
      )
    // A smaller count (written before a later one) takes nothing back.
    expect(await check({ inputTokens: 1, outputTokens: 1, costUsd: 0.000001 })).toBeNull()
    expect(await runRow(endedRunId)).toEqual(ended)
    // A larger one raises the tokens and the cost, whatever the run's status; an unknown cost leaves it.
    await check({ inputTokens: 7_000, outputTokens: 40, costUsd: null })
    expect(await runRow(endedRunId)).toEqual({ ...ended, input_tokens: 7_000, output_tokens: 40 })
    await check({ inputTokens: 7_000, outputTokens: 40, costUsd: 0.5 })
    expect(await runRow(endedRunId)).toEqual({
      ...ended,
      input_tokens: 7_000,
      output_tokens: 40,
      cost_usd: '0.500000',
    })
  })
})
