/**
 * Issue 17 items 3 and 5 on real PostgreSQL, real HTTP and the real scheduler, with the fake model
 * reporting token usage (claude-sonnet-4-5: $3 in, $15 out per million tokens):
 * a job's cost cap stops a run after the step that crossed it; the organisation's monthly budget
 * skips runs on its key (with the reason) until an admin raises it, and stops a run on its key
 * between steps once that run reaches it; the usage report sums tokens
 * and cost per job, person and day.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { POLL } from '#tests/support/poll.ts'
import { runNow, waitForRun } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const SETTINGS = '/_agent-native/org-settings'
const USAGE = '/_agent-native/usage'
const DEPLOYMENT_KEY = 'sk-ant-deployment-budgets-01'
const ORG_KEY = 'sk-ant-org-budgets-02'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startAgentApp({
    key: DEPLOYMENT_KEY,
    anyKey: true, // the organisation's stored key is spent too
    fallback: { text: 'Done.', usage: { input_tokens: 10, output_tokens: 5 } },
    scheduler: true,
  })
  ;({ app, team, fake } = agent)
  // Sign-ups hash passwords and the first page render bundles the client: slow on a busy machine.
}, 180_000)
afterAll(() => agent?.close())

const job = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  schedule: '0 7 * * *',
  instructions: `Do ${name}.`,
  enabled: false,
  scope: 'shared',
  ...extra,
})

/** 100k input + 10k output tokens: $0.30 + $0.15 = $0.45 per step. */
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }
const clockStep = { content: [{ type: 'tool_use' as const, name: 'clock', input: {} }], usage: pricey }

const requestsFor = (token: string) =>
  fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes(token))

describe('a job cost cap (maxCostUsd)', () => {
  it('stops the run after the step that crossed it and records error with the reason', async () => {
    const made = await team.admin.client.post(J, job('capped', { maxCostUsd: 0.5 }))
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body.job.maxCostUsd).toBe(0.5)
    // Step 1 costs $0.45 (under), step 2 brings it to $0.90 (over): no step 3 may be asked for.
    fake.replyWhen('Do capped.', clockStep, clockStep, { text: 'Step three must never run.' })
    const { run, transcript } = await runNow(team.admin.client, made.body.job.id)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(
      /cost \$0\.90 after step 2, over the job's cap of \$0\.50 per run \(maxCostUsd\)/,
    )
    expect(run.usage).toMatchObject({ inputTokens: 200_000, outputTokens: 20_000, costUsd: 0.9 })
    expect(requestsFor('Do capped.')).toHaveLength(2)
    // What the agent did before the stop is kept.
    expect(JSON.stringify(transcript)).toContain('tool-clock')
    expect(JSON.stringify(transcript)).not.toContain('Step three')
  })

  it('stops a run on the deployment’s key whose job has no cap at the server’s cap per run', async () => {
    // DEPLOYMENT_KEY_MAX_RUN_COST_USD is $1 by default (decision 0447): $0.45, $0.90, then $1.35.
    const made = await team.admin.client.post(J, job('uncapped'))
    expect(made.body.job.maxCostUsd).toBeNull()
    fake.replyWhen('Do uncapped.', clockStep, clockStep, clockStep, { text: 'Step four must never run.' })
    const { run } = await runNow(team.admin.client, made.body.job.id)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(
      /cost \$1\.35 after step 3, over this server's cap of \$1\.00 per run on its own model key \(DEPLOYMENT_KEY_MAX_RUN_COST_USD\)/,
    )
    expect(requestsFor('Do uncapped.')).toHaveLength(3)
  })

  it('lets a run under its cap succeed', async () => {
    const made = await team.admin.client.post(J, job('roomy', { maxCostUsd: 1 }))
    fake.replyWhen('Do roomy.', clockStep, { text: 'Done.', usage: pricey })
    const { run } = await runNow(team.admin.client, made.body.job.id)
    expect(run.status).toBe('success')
    expect(run.usage.costUsd).toBe(0.9)
  })

  it('prices cached tokens as the recorded cost does: a run under its cap at cache rates succeeds', async () => {
    // 10k new + 180k read from the cache + 10k out: $0.03 + $0.054 + $0.15 = $0.234 a step, $0.468
    // in two, under $0.50. At the full input price the same step is $0.72, and the cap stopped the
    // run after its first step though the recorded cost was under it. (Under 200k input tokens a
    // call: past them, cache included, the long-context rates apply.)
    const cachedStep = { input_tokens: 10_000, cache_read_input_tokens: 180_000, output_tokens: 10_000 }
    const made = await team.admin.client.post(J, job('cached', { maxCostUsd: 0.5 }))
    fake.replyWhen(
      'Do cached.',
      { ...clockStep, usage: cachedStep },
      { text: 'Done within the cap.', usage: cachedStep },
    )
    const { run } = await runNow(team.admin.client, made.body.job.id)
    expect(run.error).toBeNull()
    expect(run.status).toBe('success')
    expect(run.usage.costUsd).toBe(0.468)
  })

  it('refuses a bad cap with a 400 naming maxCostUsd and changes nothing', async () => {
    const before = await snapshotTables(app.server.db)
    for (const bad of [0, -1, 'a dollar', 20_000]) {
      const res = await team.admin.client.post(J, job('bad-cap', { maxCostUsd: bad }))
      expect(res.status).toBe(400)
      expect(res.body.error.field).toBe('maxCostUsd')
    }
    expect(await snapshotTables(app.server.db)).toEqual(before)
  })
})

describe("the organisation's monthly budget", () => {
  let jobId: string

  beforeAll(async () => {
    const key = await team.admin.client.request('PUT', '/_agent-native/model-keys', {
      scope: 'org',
      apiKey: ORG_KEY,
    })
    expect(key.status).toBe(200)
    const made = await team.admin.client.post(J, job('org-spender', { runAs: 'shared' }))
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    jobId = made.body.job.id
  })

  it('is set by admins only, validated with a 400 naming the field', async () => {
    expect((await team.member.client.patch(SETTINGS, { monthlyBudgetUsd: 100 })).status).toBe(403)
    for (const bad of [0, -5, '50']) {
      const res = await team.admin.client.patch(SETTINGS, { monthlyBudgetUsd: bad })
      expect(res.status).toBe(400)
      expect(res.body.error.field).toBe('monthlyBudgetUsd')
    }
    const set = await team.admin.client.patch(SETTINGS, { monthlyBudgetUsd: 0.5 })
    expect(set.status).toBe(200)
    expect(set.body.settings.monthlyBudgetUsd).toBe(0.5)
  })

  it('pauses runs on the org key once reached, with the reason, until an admin raises it', async () => {
    // $0.45 + $0.15 = $0.60 on the org key, over the $0.50 budget, in one step: the budget is
    // checked before a next step, and this run has none.
    fake.replyWhen('Do org-spender.', {
      text: 'Spent.',
      usage: { input_tokens: 150_000, output_tokens: 10_000 },
    })
    const first = await runNow(team.admin.client, jobId)
    expect(first.run.status).toBe('success')
    expect(requestsFor('Do org-spender.').at(-1)!.headers['x-api-key']).toBe(ORG_KEY)

    const asked = requestsFor('Do org-spender.').length
    const paused = await runNow(team.admin.client, jobId)
    expect(paused.run.status).toBe('skipped')
    expect(paused.run.reason).toMatch(/monthly budget of \$0\.50 .* is reached \(\$0\.60 spent this month\)/)
    expect(requestsFor('Do org-spender.')).toHaveLength(asked)
    const seen = await team.member.client.get(`${J}/${jobId}`)
    expect(seen.body.job.lastStatus).toBe('skipped')

    // Everyone sees why in the app's banner; admins see the budget against the spend.
    const page = await team.member.client.get('/jobs')
    expect(String(page.body)).toContain('monthly budget')
    const usage = await team.admin.client.get(USAGE)
    expect(usage.body.budget).toEqual({ monthlyBudgetUsd: 0.5, spentUsd: 0.6, reached: true })

    // A run on another key (here the deployment's) is not the organisation's spend and still runs.
    const own = await team.admin.client.post(J, job('own-key'))
    expect((await runNow(team.admin.client, own.body.job.id)).run.status).toBe('success')

    expect((await team.admin.client.patch(SETTINGS, { monthlyBudgetUsd: 5 })).status).toBe(200)
    fake.replyWhen('Do org-spender.', { text: 'Back.', usage: { input_tokens: 10, output_tokens: 5 } })
    const resumed = await runNow(team.admin.client, jobId)
    expect(resumed.run.status).toBe('success')
    const after = await team.member.client.get('/jobs')
    expect(String(after.body)).not.toContain('monthly budget')
  })

  it('stops a run on the org key between steps once its spending reaches the budget', async () => {
    // About $0.60 is spent this month. A job on the org key whose every step costs $0.45 would go
    // on for as many steps as the model asks: the budget was checked only when a run started, so
    // one run could spend the month's budget many times over.
    expect((await team.admin.client.patch(SETTINGS, { monthlyBudgetUsd: 1.4 })).status).toBe(200)
    const made = await team.admin.client.post(J, job('org-stepper', { runAs: 'shared' }))
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    // After step 1 the month is at $1.05 (under), after step 2 at $1.50 (over): no step 3.
    fake.replyWhen('Do org-stepper.', clockStep, clockStep, clockStep, { text: 'Step four must never run.' })
    const { run, transcript } = await runNow(team.admin.client, made.body.job.id)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(
      /^Stopped after step 2\. Paused: the organisation's monthly budget of \$1\.40 .* is reached \(\$1\.50 spent this month\)/,
    )
    expect(requestsFor('Do org-stepper.')).toHaveLength(2)
    expect(requestsFor('Do org-stepper.').at(-1)!.headers['x-api-key']).toBe(ORG_KEY)
    // What it spent and did before the stop is the run's record.
    expect(run.usage).toMatchObject({ inputTokens: 200_000, outputTokens: 20_000, costUsd: 0.9 })
    expect(JSON.stringify(transcript)).toContain('tool-clock')
    const usage = await team.admin.client.get(USAGE)
    expect(usage.body.budget).toMatchObject({ monthlyBudgetUsd: 1.4, reached: true })
  })

  it('counts what a run still going has spent: a second run at once cannot spend it again', async () => {
    // Runs going at the same time counted each other's spending only once they ended, so two runs
    // started together could each spend what the budget had left. Run A spends $0.90 in its first
    // step and is held in its second; run B then starts with $1.00 left before A's spending.
    const spent = (await team.admin.client.get(USAGE)).body.budget.spentUsd as number
    const budget = Math.round((spent + 1) * 100) / 100
    expect((await team.admin.client.patch(SETTINGS, { monthlyBudgetUsd: budget })).status).toBe(200)
    const holder = await team.admin.client.post(J, job('org-holder', { runAs: 'shared' }))
    const second = await team.admin.client.post(J, job('org-second', { runAs: 'shared' }))
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const bigStep = { ...clockStep, usage: { input_tokens: 200_000, output_tokens: 20_000 } } // $0.90
    fake.replyWhen('Do org-holder.', bigStep, async () => {
      await held
      return { text: 'Held, then done.', usage: { input_tokens: 10, output_tokens: 5 } }
    })
    fake.replyWhen('Do org-second.', clockStep, clockStep, clockStep, { text: 'Never needed.' })

    const started = await team.admin.client.post(`${J}/${holder.body.job.id}/run`)
    expect(started.status).toBe(202)
    // A asked for its second step: its budget check after step 1 is behind it.
    await vi.waitFor(() => expect(requestsFor('Do org-holder.')).toHaveLength(2), POLL)
    // A's $0.90 and what it holds for the call it is making (its worst case: 220,000 tokens in and
    // 64,000 out, $1.62) leave B no room, so B is skipped without a call (decision 0480). Before,
    // B made one call of $0.45 and stopped: with A's second call that could pass the budget by both.
    const b = await runNow(team.admin.client, second.body.job.id)
    expect(b.run.status).toBe('skipped')
    expect(b.run.reason).toMatch(/^Paused: the organisation's monthly budget/)
    expect(requestsFor('Do org-second.')).toHaveLength(0)
    // While it goes, A's record shows what it has spent.
    const going = await team.admin.client.get(`/_agent-native/runs/${started.body.run.id}`)
    expect(going.body.run).toMatchObject({ status: 'running', usage: { costUsd: 0.9 } })

    release()
    const a = await waitForRun(team.admin.client, started.body.run.id)
    expect(a.run.status).toBe('success')
    expect(a.run.usage.costUsd).toBeCloseTo(0.9, 3)
  })
})

describe('the usage report', () => {
  it('sums tokens and cost per job, per person and per day, for admins', async () => {
    const res = await team.admin.client.get(`${USAGE}?days=7`)
    expect(res.status).toBe(200)
    const { report } = res.body
    expect(report.days).toBe(7)
    expect(report.byDay).toHaveLength(7)
    const capped = report.byJob.find((j: { name: string }) => j.name === 'capped')
    expect(capped).toMatchObject({ runs: 1, inputTokens: 200_000, outputTokens: 20_000, costUsd: 0.9 })
    const total = (rows: { costUsd: number }[]) => rows.reduce((sum, r) => sum + r.costUsd, 0)
    const jobs = total(report.byJob) + report.otherPersonalJobs.costUsd
    expect(total(report.byDay)).toBeCloseTo(jobs, 6)
    expect(total(report.byPerson)).toBeCloseTo(jobs, 6)
    expect(report.byPerson[0]).toMatchObject({ userId: team.admin.id, email: team.admin.email })
    expect(report.byDay.at(-1).costUsd).toBeCloseTo(jobs, 6)
  })

  it('answers 400 naming days for a bad window, and 403 to members', async () => {
    for (const bad of ['0', '91', 'week']) {
      const res = await team.admin.client.get(`${USAGE}?days=${bad}`)
      expect(res.status).toBe(400)
      expect(res.body.error.field).toBe('days')
    }
    expect((await team.member.client.get(USAGE)).status).toBe(403)
  })
})
