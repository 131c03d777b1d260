/**
 * Runs going at once against one budget (decision 0480). Every run asked "is what is spent below
 * the budget?" before its next model call, and nothing was held for the call it was about to make:
 * N runs that asked at the same moment all saw room and all made their call, so together they
 * passed the budget by N calls. With open sign-up anyone can start many runs at once. Now each
 * check holds the call's worst case in the same locked step that reads the budget, so the budget
 * is passed by at most the one call that was admitted last.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CALL_OUTPUT_RESERVE_TOKENS } from '#server/runs/budget.ts'
import { queryRows } from '#server/db/sql.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { POLL } from '#tests/support/poll.ts'
import { finished, pausedJob, waitForRun } from '#tests/support/runs.ts'

const J = '/_agent-native/jobs'
const KEY = 'sk-ant-concurrent-budget-0480'
const RUNS = 6
const LIMIT = 1
// The daily budget binds, not the cap per run; every run may start at once.
const env = {
  DEPLOYMENT_KEY_MAX_USD_PER_DAY: String(LIMIT),
  DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10',
  SCHEDULER_CONCURRENCY: String(RUNS),
  SCHEDULER_ORG_CONCURRENCY: String(RUNS),
}
/** 100k input + 10k output tokens on claude-sonnet-4-5: $0.30 + $0.15 = $0.45 a call. */
const STEP_USD = 0.45
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env, scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

describe("runs started at once on the deployment's key", () => {
  it('pass its daily budget together by at most one call', async () => {
    const { client } = agent.team.admin
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const step = async () => {
      await held
      return { ...toolUse('clock', {}), usage: pricey }
    }
    const ids: string[] = []
    for (let i = 0; i < RUNS; i++) {
      const name = `racer-${i}`
      ids.push(await pausedJob(client, name))
      agent.fake.replyWhen(`Do ${name}.`, ...Array.from({ length: 8 }, () => step))
    }
    // All asked at once, as an attacker would: Run now on every job.
    const started = await Promise.all(ids.map((id) => client.post(`${J}/${id}/run`)))
    for (const res of started) expect(res.status, JSON.stringify(res.body)).toBe(202)
    const runIds = started.map((res) => res.body.run.id as string)

    // Every run is either at the model, its first call held, or was refused without one: all the
    // checks before a first call are behind them, at the same time.
    await vi.waitFor(async () => {
      const asking = new Set(
        agent.fake.requests.map((r) => /Do (racer-\d+)\./.exec(JSON.stringify(r.body.messages))?.[1]),
      )
      for (const [i, runId] of runIds.entries()) {
        if (asking.has(`racer-${i}`)) continue
        const res = await client.get(`/_agent-native/runs/${runId}`)
        expect(finished(res.body.run.status), `racer-${i} neither asked nor ended`).toBe(true)
      }
    }, POLL)
    release()
    for (const runId of runIds) await waitForRun(client, runId)

    const [row] = await queryRows<{ usd: string; calls: number }>(
      agent.app.server.db.db,
      sql`select coalesce(sum(cost_usd), 0) as usd from job_runs where key_source = 'deployment'`,
    )
    const spent = Number(row!.usd)
    expect(spent).toBeCloseTo(agent.fake.requests.length * STEP_USD, 6)
    // Before: all six first calls went ($2.70), at times a second one too ($3.15), against $1.
    expect(spent).toBeLessThanOrEqual(LIMIT + STEP_USD + 1e-6)
    // Each call asked for at most the output its hold counted: the hold is its worst case.
    for (const r of agent.fake.requests) expect(r.body.max_tokens).toBe(CALL_OUTPUT_RESERVE_TOKENS)
  })
})
