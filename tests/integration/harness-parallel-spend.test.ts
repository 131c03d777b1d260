/**
 * Harnesses a builtin run starts in one step (run_harness twice in one model reply: the AI SDK runs
 * the tool calls at once), with the real Claude Code CLI against the fake model. Each harness was
 * given what the job's cap left when the step began, and neither saw what the other spent until
 * both had ended: a job capped at $0.05 spent $0.12 through two, and N at once spend N caps (an
 * outside review's finding). A run's harnesses now take turns (decision 0518): the second starts
 * with what the first spent counted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { settledRun, startHarnessApp } from '#tests/support/harness-runs.ts'

const KEY = 'sk-ant-harness-parallel-spend'
const R = '/_agent-native/resources'
let agent: AgentApp

beforeAll(async () => {
  agent = await startHarnessApp({ key: KEY, environmentsDir: 'clockwork-harness-parallel-', scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

it("two run_harness calls in one step share the job's cap instead of each getting it whole", async () => {
  const c = agent.team.member.client
  for (const env of ['par-a', 'par-b']) {
    const saved = await c.put(`${R}/personal/environments/${env}.md`, '---\nprovider: local\n---\nWork.\n')
    expect(saved.status).toBe(201)
  }
  const made = await c.post('/_agent-native/jobs', {
    name: 'parallel-delegates',
    schedule: '0 7 * * 1-5',
    instructions: 'Task parallel-delegates: hand it on twice.',
    environment: 'par-a',
    maxCostUsd: 0.05,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  const delegate = (environment: string, tag: string) =>
    toolUse('run_harness', { harness: 'claude-code', environment, prompt: `Inner ${tag}: go` }).content[0]!
  agent.fake.replyWhen(
    'Task parallel-delegates:',
    { content: [delegate('par-a', 'parA'), delegate('par-b', 'parB')] },
    { text: 'Both done.' },
  )
  // Each CLI call costs $0.03 (5,000 in and 1,000 out at Sonnet's prices): a harness's second
  // crosses the $0.05 cap and its third is refused, so one harness alone makes two.
  const usage = { input_tokens: 5_000, output_tokens: 1_000 }
  for (const tag of ['parA', 'parB']) {
    agent.fake.replyWhen(
      `Inner ${tag}:`,
      { ...toolUse('Bash', { command: `echo ${tag}-1`, description: 'one' }), usage },
      { ...toolUse('Bash', { command: `echo ${tag}-2`, description: 'two' }), usage },
      { text: 'third call: must never be sent', usage },
    )
  }
  const started = await c.post(`/_agent-native/jobs/${made.body.job.id}/run`)
  expect(started.status).toBe(202)
  const { run, transcript } = await settledRun(c, started.body.run.id)
  const fromCli = agent.fake.requests.filter((r) => {
    const said = JSON.stringify(r.body.messages ?? [])
    return /Inner par[AB]:/.test(said) && !said.includes('Task parallel-delegates:')
  })
  // Before, both harnesses made two calls each: $0.12 on a $0.05 cap.
  expect(fromCli).toHaveLength(2)
  const outputs = transcript
    .flatMap((m: any) => m.parts ?? [])
    .filter((p: any) => p.type === 'tool-run_harness')
    .map((p: any) => p.output)
  expect(outputs.map((o: any) => o.error?.code ?? 'ran').sort()).toEqual(['harness_failed', 'over_cap'])
  expect(run.usage.costUsd).toBeGreaterThanOrEqual(0.06)
}, 240_000)
