/**
 * What was spent on the deployment's key stays spent when the job that spent it is deleted
 * (decision 0520). The daily budget (DEPLOYMENT_KEY_MAX_USD_PER_DAY) and an organisation's runs on
 * that key a day were sums over job_runs, whose rows go with their job: a member who had used the
 * day's budget deleted the job that spent it, and Run now was a 202 again, the key spent again,
 * without end. Written as that member: Run now past the budget, delete, Run now again. (The
 * organisation's delete: organization-delete-attacks.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { pausedJob, runNow } from '#tests/support/runs.ts'

const J = '/_agent-native/jobs'
const env = { DEPLOYMENT_KEY_MAX_USD_PER_DAY: '1', DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10' }
// 100,000 input and 10,000 output tokens on the test model: $0.45 a call.
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }
const clockSteps = (n: number) =>
  Array.from({ length: n }, () => ({ ...toolUse('clock', {}), usage: pricey }))

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-deleted-spend-job', env, scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

describe('deleting the job that spent the day’s budget', () => {
  it('keeps the budget reached: Run now on another job is still 429', async () => {
    const member = agent.team.member.client
    const spent = await pausedJob(member, 'spend-one')
    agent.fake.replyWhen('Do spend-one.', ...clockSteps(24))
    const { run } = await runNow(member, spent)
    expect(run.error).toMatch(/daily budget/)
    expect(agent.fake.requests).toHaveLength(3) // $1.35, past the $1 budget
    const other = await pausedJob(member, 'spend-two')
    expect((await member.post(`${J}/${other}/run`)).status).toBe(429)

    expect((await member.delete(`${J}/${spent}`)).status).toBe(204)
    agent.fake.replyWhen('Do spend-two.', ...clockSteps(24))
    const again = await member.post(`${J}/${other}/run`)
    expect(again.status, 'the budget forgot what the deleted job spent').toBe(429)
    expect(again.body.error.message).toMatch(/\$1\.35 spent in the last 24 hours/)
    expect(agent.fake.requests).toHaveLength(3)
  })
})
