/**
 * Job runs as agent conversations: run now → the scheduler's default executor (the agent) runs
 * the instructions as the run-as user with the same tools as chat under the unattended rules, and
 * the transcript (text, tool calls and results), token usage and estimated cost are stored.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { resetEnvCache } from '#server/env.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { runNow } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { cliRegistry } from '#server/cli/registered.ts'
import { queryRows } from '#server/db/sql.ts'

// The cli tool is offered when some registered CLI can run here (installed, and bubblewrap usable).
const cliOffered = (await cliRegistry().describe()).some((c) => c.available)

const J = '/_agent-native/jobs'
const KEY = 'sk-ant-deployment-run-0007'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    scheduler: true,
    // Runs here use the deployment's key; the pricing test's run costs $2.88, over the default cap.
    env: { DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10' },
  })
  ;({ app, team, fake } = agent)
})
afterAll(() => agent?.close())
beforeEach(() => {
  fake.requests.length = 0
})

const toolUse = (
  name: string,
  input: Record<string, unknown>,
  usage = { input_tokens: 100, output_tokens: 20 },
) => ({
  content: [{ type: 'tool_use' as const, name, input }],
  usage,
})

async function createJob(name: string, body: Record<string, unknown> = {}) {
  const res = await team.creator.client.post(J, {
    name,
    schedule: '0 7 * * 1-5',
    timezone: 'Europe/Berlin',
    instructions: `Instructions for ${name}`,
    ...body,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job as { id: string; name: string }
}

describe('an unattended run', () => {
  it('calls a tool as the run-as user and stores the transcript, usage and cost', async () => {
    const job = await createJob('signup-report', {
      instructions: 'Write the sign-up numbers to reports/signups.md',
    })
    fake.reply(
      toolUse('workspace', { action: 'write', path: 'reports/signups.md', content: '42 sign-ups' }),
      { text: 'Wrote reports/signups.md: 42 sign-ups.', usage: { input_tokens: 150, output_tokens: 30 } },
    )
    const { run, transcript } = await runNow(team.creator.client, job.id)
    expect(run).toMatchObject({
      status: 'success',
      error: null,
      usage: { inputTokens: 250, outputTokens: 50 },
    })

    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(transcript[0].parts).toEqual([
      { type: 'text', text: 'Write the sign-up numbers to reports/signups.md' },
    ])
    const parts = transcript[1].parts
    expect(parts).toContainEqual(
      expect.objectContaining({
        type: 'tool-workspace',
        state: 'output-available',
        input: { action: 'write', path: 'reports/signups.md', content: '42 sign-ups' },
        output: expect.objectContaining({ ok: true, summary: 'Created personal/reports/signups.md' }),
      }),
    )
    expect(parts).toContainEqual(
      expect.objectContaining({ type: 'text', text: 'Wrote reports/signups.md: 42 sign-ups.' }),
    )

    // The file landed in the run-as user's (the creator's) own workspace.
    const file = await team.creator.client.request(
      'GET',
      '/_agent-native/resources/personal/reports/signups.md',
    )
    expect(file.status).toBe(200)
    expect(JSON.stringify(file.body)).toContain('42 sign-ups')

    // Cost: claude-sonnet-4-5 at $3 / $15 per million tokens, stored and in the Run JSON.
    const expected = (250 * 3 + 50 * 15) / 1e6
    expect(run.usage.costUsd).toBeCloseTo(expected, 9)
    const [row] = await queryRows(app.server.db.db, sql`select cost_usd from job_runs where id = ${run.id}`)
    expect(Number(row!.cost_usd)).toBeCloseTo(expected, 9)
    const history = await team.creator.client.get(`${J}/${job.id}/runs`)
    expect(history.body.runs[0].usage).toEqual({
      inputTokens: 250,
      outputTokens: 50,
      costUsd: expected,
      model: 'anthropic:claude-sonnet-4-5',
    })

    // The system prompt names the job, its schedule in words and the current time. The tools are those
    // this run can use: no send_notification (the job has no notify targets), no run_harness (the
    // person has no environment to run one in).
    const [first] = fake.requests
    const system = first!.body.system.map((b: { text: string }) => b.text).join('\n')
    expect(system).toContain('"signup-report" unattended')
    expect(system).toContain('Every weekday at 07:00 (Europe/Berlin)')
    expect(system).toContain(new Date().toISOString().slice(0, 10))
    expect(first!.body.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      ...(cliOffered ? ['cli'] : []),
      'clock',
      'edit_file',
      'list_directory',
      'manage-jobs',
      'manage-runs',
      'read_file',
      'run-code',
      'run_command',
      'run_script',
      'search_files',
      'skills',
      'web_fetch',
      'workspace',
      'write_file',
    ])
  })

  it('records tokens but no cost for a model without a known price', async () => {
    process.env.AGENT_MODEL = 'anthropic:claude-unpriced-9'
    resetEnvCache()
    try {
      const job = await createJob('unpriced')
      fake.reply({ text: 'ok', usage: { input_tokens: 10, output_tokens: 3 } })
      const { run } = await runNow(team.creator.client, job.id)
      expect(fake.requests.at(-1)!.body.model).toBe('claude-unpriced-9')
      expect(run.usage).toEqual({
        inputTokens: 10,
        outputTokens: 3,
        costUsd: null,
        model: 'anthropic:claude-unpriced-9',
      })
    } finally {
      process.env.AGENT_MODEL = 'anthropic:claude-sonnet-4-5'
      resetEnvCache()
    }
  })

  it('prices each call as the provider bills it: long-context rates past 200,000 input tokens, an hour’s cache writes at twice the input price', async () => {
    // Two calls of claude-sonnet-4-5. The first reads 150,000 tokens: under the long-context
    // threshold, so at $3 / $15 although the run's two calls read more than 200,000 together. The
    // second reads 5,000 and writes 200,000 to the 1-hour cache, 205,000 in all: the whole call at
    // the long-context $6 / $22.50, the writes at twice that input price.
    const job = await createJob('long-context')
    fake.reply(
      { ...toolUse('clock', {}), usage: { input_tokens: 150_000, output_tokens: 100 } },
      {
        text: 'Done.',
        usage: {
          input_tokens: 5_000,
          output_tokens: 50,
          cache_creation_input_tokens: 200_000,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 200_000 },
        },
      },
    )
    const { run } = await runNow(team.creator.client, job.id)
    expect(run.status).toBe('success')
    const first = (150_000 * 3 + 100 * 15) / 1e6
    const second = (5_000 * 6 + 200_000 * 2 * 6 + 50 * 22.5) / 1e6
    expect(run.usage).toMatchObject({ inputTokens: 355_000, outputTokens: 150 })
    expect(run.usage.costUsd).toBeCloseTo(first + second, 6)
    const [row] = await queryRows(app.server.db.db, sql`select cost_usd from job_runs where id = ${run.id}`)
    expect(Number(row!.cost_usd)).toBeCloseTo(first + second, 6)
  })

  it('succeeds when the model recovers from a call to a tool that does not exist, or with bad input', async () => {
    // Models name tools wrongly or leave out an argument now and then; the error goes back to the
    // model as the call's result and it tries again. The run fails only if the conversation does.
    const job = await createJob('recovers')
    fake.reply(toolUse('no_such_tool', { anything: 1 }), toolUse('workspace', { path: 42 }), {
      text: 'Done after all.',
      usage: { input_tokens: 10, output_tokens: 3 },
    })
    const { run, transcript } = await runNow(team.creator.client, job.id)
    expect(run).toMatchObject({ status: 'success', error: null })
    const parts = transcript[1].parts as { type: string; state?: string; text?: string }[]
    expect(parts.filter((p) => p.state === 'output-error')).toHaveLength(2)
    expect(parts.at(-1)).toMatchObject({ type: 'text', text: 'Done after all.' })
  })

  it('may not delete jobs: the tool refuses and the job stays', async () => {
    const victim = await createJob('victim')
    const job = await createJob('cleanup', { instructions: 'Delete the job called victim.' })
    fake.reply(toolUse('manage-jobs', { action: 'delete', name: 'victim' }), {
      text: 'I could not delete it.',
    })
    const { run, transcript } = await runNow(team.creator.client, job.id)
    expect(run.status).toBe('success')
    const step = transcript[1].parts.find((p: { type: string }) => p.type === 'tool-manage-jobs')
    expect(step).toMatchObject({ state: 'output-available', output: { ok: false, error: { status: 403 } } })
    expect(step.output.error.message).toMatch(/confirm it in chat/)
    expect((await team.creator.client.get(`${J}/${victim.id}`)).status).toBe(200)
  })

  it('acts with the run-as user’s rights only: another member’s shared job cannot be changed', async () => {
    const others = (
      await team.admin.client.post(J, {
        name: 'admins-job',
        schedule: '0 7 * * *',
        instructions: 'x',
        scope: 'shared',
      })
    ).body.job
    const job = await createJob('meddler', { instructions: 'Pause admins-job.' })
    fake.reply(toolUse('manage-jobs', { action: 'update', name: 'admins-job', enabled: false }), {
      text: 'Not allowed.',
    })
    const { transcript } = await runNow(team.creator.client, job.id)
    const step = transcript[1].parts.find((p: { type: string }) => p.type === 'tool-manage-jobs')
    expect(step.output).toMatchObject({ ok: false, error: { status: 403 } })
    expect((await team.admin.client.get(`${J}/${others.id}`)).body.job).toMatchObject({
      enabled: true,
      version: 1,
    })
  })

  it('tells the time in the job’s zone, not the person’s', async () => {
    const job = await createJob('tokyo-morning', { timezone: 'Asia/Tokyo' })
    fake.reply(toolUse('clock', {}), { text: 'It is morning in Tokyo.' })
    const { transcript } = await runNow(team.creator.client, job.id)
    const step = transcript[1].parts.find((p: { type: string }) => p.type === 'tool-clock')
    expect(step.output).toMatchObject({ ok: true, timezone: 'Asia/Tokyo', utcOffset: '+09:00' })
  })

  it('fails with the provider’s reason and keeps what it spent when the model call fails', async () => {
    const job = await createJob('flaky')
    fake.reply(toolUse('clock', {}), {
      status: 400,
      errorType: 'invalid_request_error',
      message: 'prompt is too long',
    })
    const { run, transcript } = await runNow(team.creator.client, job.id)
    expect(run.status).toBe('error')
    expect(run.error).toBe('The model call failed (400): prompt is too long')
    expect(run.usage).toMatchObject({ inputTokens: 100, outputTokens: 20 })
    expect(transcript[1].parts).toContainEqual(
      expect.objectContaining({ type: 'tool-clock', state: 'output-available' }),
    )
  })
})
