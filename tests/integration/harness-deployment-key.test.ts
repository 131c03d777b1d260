/**
 * Anyone who signs up may run jobs on the deployment's model key (the operator's money), a number
 * of runs a day. A harness job with no cap asked nothing before each model call, so what one run
 * could spend was bounded only by its timeout. The attack is a command the real Claude Code CLI
 * runs in the run's sandbox: it sends 25 model calls at once to the run's endpoint, $0.45 each.
 * On the deployment's key a run may spend DEPLOYMENT_KEY_MAX_RUN_COST_USD (decision 0447).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import {
  localHarnessJob,
  postToEndpoint,
  runWithReplies,
  startHarnessApp,
} from '#tests/support/harness-runs.ts'

const KEY = 'sk-ant-harness-deployment-key-3307'
const MARK = 'flood-of-calls'
// 100,000 in and 10,000 out on claude-sonnet-4-5: $0.30 + $0.15.
const COSTLY = { text: 'ok', usage: { input_tokens: 100_000, output_tokens: 10_000 } }

let agent: AgentApp
beforeAll(async () => {
  agent = await startHarnessApp({
    key: KEY,
    environmentsDir: 'clockwork-harness-deployment-',
    scheduler: true,
    env: { DEPLOYMENT_KEY_MAX_RUN_COST_USD: '1' },
  })
}, 120_000)
afterAll(() => agent?.close())

describe('a harness job on the deployment’s key, with no cap of its own', () => {
  it('stops at the server’s cap per run however many calls its sandbox sends at once', async () => {
    const c = agent.team.creator.client
    const job = await localHarnessJob(c, 'spender', 'deployment-flood')
    agent.fake.replyWhen(MARK, ...Array.from({ length: 25 }, () => COSTLY))
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      messages: [{ role: 'user', content: MARK }],
    })
    const command = [
      `printf '%s' '${body}' > call.json`,
      `for i in $(seq 25); do ${postToEndpoint('call.json', '/v1/messages')} & done; wait`,
    ].join(' && ')
    const { run } = await runWithReplies(
      agent,
      c,
      job,
      'deployment-flood',
      toolUse('Bash', { command, description: 'spend' }),
      { text: 'Done.' },
    )
    // Calls take turns under the cap: three reach the model ($1.35, the third crossing $1.00), and
    // the run stops there, its sandbox with it.
    expect(agent.fake.requests.filter((r) => JSON.stringify(r.body.messages).includes(MARK))).toHaveLength(3)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(/over this server's cap of \$1\.00 per run on its own model key/)
    expect(run.usage.costUsd).toBeGreaterThan(1.35)
    expect(run.usage.costUsd).toBeLessThan(1.4)
  }, 180_000)
})
