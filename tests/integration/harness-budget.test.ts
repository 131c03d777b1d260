/**
 * The organisation's monthly budget and a harness that a builtin run starts (run_harness), with the
 * real Claude Code CLI against the fake model: the budget is asked before each of the harness's
 * calls with what the starting run's finished steps had spent added. It counted only the harness's
 * own calls, so a run that had spent most of the budget could start a harness that spent past it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { settledRun, startHarnessApp } from '#tests/support/harness-runs.ts'
import { POLL } from '#tests/support/poll.ts'
import { runNow } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'

const KEY = 'sk-ant-deployment-harness-budget-1'
const ORG_KEY = 'sk-ant-org-harness-budget-2'
const R = '/_agent-native/resources'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startHarnessApp({
    key: KEY,
    anyKey: true,
    environmentsDir: 'clockwork-harness-budget-',
    scheduler: true,
  })
  ;({ team, fake } = agent)
}, 120_000)
afterAll(() => agent?.close())

describe('run_harness in a run on the organisation key', () => {
  it("counts what the run had spent before the harness against the organisation's budget", async () => {
    const admin = team.admin.client
    const key = await admin.request('PUT', '/_agent-native/model-keys', { scope: 'org', apiKey: ORG_KEY })
    expect(key.status).toBe(200)
    expect((await admin.patch('/_agent-native/org-settings', { monthlyBudgetUsd: 0.5 })).status).toBe(200)
    const definition = '---\nprovider: local\n---\nWork here.\n'
    expect((await admin.put(`${R}/shared/environments/budgeted.md`, definition)).status).toBe(201)
    const made = await admin.post('/_agent-native/jobs', {
      name: 'org-delegates',
      schedule: '0 7 * * 1-5',
      instructions: 'Task org-delegates: hand it on.',
      scope: 'shared',
      runAs: 'shared',
      environment: 'budgeted',
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    // The run's first step costs $0.45 (150,000 in at Sonnet's $3 a million), under the $0.50
    // budget; its second asks for the harness, whose first call costs $0.09: $0.54 with the run's,
    // past the budget. (A step's cost is known once it ends, after its tools: the step that starts
    // the harness is counted from its end, like the rest of the run.) Each call's worst case ($0.96
    // and more: 64,000 tokens out) is above the whole budget, yet the calls are made: a run's own
    // hold is dropped before its check, so it stops only others (decision 0480).
    fake.replyWhen(
      'Task org-delegates:',
      { ...toolUse('clock', {}), usage: { input_tokens: 150_000, output_tokens: 0 } },
      {
        ...toolUse('run_harness', {
          harness: 'claude-code',
          environment: 'budgeted',
          prompt: 'Inner org-delegated: echo once',
        }),
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    )
    fake.replyWhen(
      'Inner org-delegated:',
      {
        ...toolUse('Bash', { command: 'echo inner-once', description: 'once' }),
        usage: { input_tokens: 20_000, output_tokens: 2_000 },
      },
      { text: 'second call: must never be sent' },
    )
    const started = await admin.post(`/_agent-native/jobs/${made.body.job.id}/run`)
    expect(started.status).toBe(202)
    const { run } = await settledRun(admin, started.body.run.id)
    const fromCli = fake.requests.filter((r) => {
      const said = JSON.stringify(r.body.messages ?? [])
      return said.includes('Inner org-delegated:') && !said.includes('Task org-delegates:')
    })
    // The harness's second call was refused at its endpoint: the budget held inside the harness.
    expect(fromCli).toHaveLength(1)
    expect(fromCli[0]!.headers['x-api-key']).toBe(ORG_KEY)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(/monthly budget of \$0\.50/)
    expect(run.usage.costUsd).toBeGreaterThanOrEqual(0.54)
  }, 120_000)

  it('shows what a harness run still going has spent to the budget checks of other runs', async () => {
    // A harness job's spending was in its record only when it ended, so a run going beside it
    // counted none of it. Claude Code spends $0.90 in its first call and is held in its second;
    // a builtin run then starts with $1.00 of the budget left before the harness's spending.
    const admin = team.admin.client
    const spent = (await admin.get('/_agent-native/usage')).body.budget.spentUsd as number
    const budget = Math.round((spent + 1) * 100) / 100
    expect((await admin.patch('/_agent-native/org-settings', { monthlyBudgetUsd: budget })).status).toBe(200)
    const job = (name: string, extra: Record<string, unknown>) =>
      admin.post('/_agent-native/jobs', {
        name,
        schedule: '0 7 * * 1-5',
        instructions: `Task ${name}: go.`,
        scope: 'shared',
        runAs: 'shared',
        ...extra,
      })
    const coder = await job('org-coder', { harness: 'claude-code', environment: 'budgeted' })
    const beside = await job('org-beside', {})
    expect(coder.status, JSON.stringify(coder.body)).toBe(201)
    expect(beside.status, JSON.stringify(beside.body)).toBe(201)
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    fake.replyWhen(
      'Task org-coder:',
      {
        ...toolUse('Bash', { command: 'echo coder-once', description: 'once' }),
        usage: { input_tokens: 200_000, output_tokens: 20_000 },
      },
      async () => {
        await held
        return { text: 'Done after the hold.', usage: { input_tokens: 10, output_tokens: 5 } }
      },
    )
    const clockStep = { ...toolUse('clock', {}), usage: { input_tokens: 100_000, output_tokens: 10_000 } } // $0.45
    fake.replyWhen('Task org-beside:', clockStep, clockStep, clockStep, { text: 'Never needed.' })

    const started = await admin.post(`/_agent-native/jobs/${coder.body.job.id}/run`)
    expect(started.status).toBe(202)
    // The CLI's second call is in: the endpoint asked the budget, with the first call's $0.90, first.
    const coderCalls = () =>
      fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes('Task org-coder:'))
    await vi.waitFor(() => expect(coderCalls()).toHaveLength(2), { ...POLL, timeout: 60_000 })

    // The $0.90 and what the endpoint holds for the call it let through ($0.96, 64,000 tokens out)
    // leave no room: the other run is skipped without a call (decision 0480). Before, it made one
    // of $0.45 and stopped: with the harness's call that could pass the budget by both.
    const other = await runNow(admin, beside.body.job.id)
    expect(other.run.status).toBe('skipped')
    expect(other.run.reason).toMatch(/^Paused: the organisation's monthly budget/)
    expect(
      fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes('Task org-beside:')),
    ).toHaveLength(0)

    release()
    const { run } = await settledRun(admin, started.body.run.id)
    expect(run.status, run.error).toBe('success')
    expect(run.usage.costUsd).toBeCloseTo(0.9, 3)
  }, 120_000)
})
