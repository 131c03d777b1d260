/**
 * A job whose agent is the real OpenCode CLI (pinned, `npm run harness:install opencode`), in the
 * job's environment, against the fake Anthropic model through the run's own endpoint (OpenCode's
 * bundled Anthropic provider, pointed there by its projected config): its `bash` writes a file in
 * the environment, a call the policy denies is refused by the projected plugin and audited, tokens
 * and cost land on the run, the provider sees the deployment's key and the sandbox only the token.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { openCode } from '#server/harness/opencode.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { connectMachine } from '#tests/support/machine-client.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'

const KEY = 'sk-ant-planted-opencode-key-4K2W'
const R = '/_agent-native/resources'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  if (!openCode.locate()) throw new Error('OpenCode is not installed: npm run harness:install opencode')
  agent = await startAgentApp({ key: KEY, environmentsDir: 'clockwork-opencode-', scheduler: true })
  ;({ team, fake } = agent)
}, 120_000)
afterAll(async () => {
  await agent?.close()
})

// OpenCode's start-up is slow on a busy machine: two minutes for a run to settle.
const settledRun = (c: ApiClient, runId: string) => waitForRun(c, runId, { timeout: 120_000 })

const envRoot = (name: string) => {
  const base = path.join(agent.dir!, 'environments')
  const found = execFileSync('find', [base, '-maxdepth', '3', '-type', 'd', '-name', name], {
    encoding: 'utf8',
  })
  return found.trim().split('\n')[0]!
}

describe('a job with harness: opencode', () => {
  it('runs: bash writes a file, a denied call is refused and audited, tokens and cost on the run, no key inside', async () => {
    const c = team.member.client
    const definition =
      '---\nprovider: local\npolicy:\n  commands:\n    deny: ["curl *"]\n---\nAlways answer in English.\n'
    expect((await c.put(`${R}/personal/environments/oc-work.md`, definition)).status).toBe(201)
    const job = await c.post('/_agent-native/jobs', {
      name: 'oc-writer',
      schedule: '0 7 * * 1-5',
      instructions: 'Task oc-writer: write the file.',
      environment: 'oc-work',
      harness: 'opencode',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
    fake.replyWhen(
      'Task oc-writer:',
      toolUse('bash', {
        command: 'echo opencode-was-here > made-by-opencode.txt && cat made-by-opencode.txt',
        description: 'write a file',
      }),
      toolUse('bash', { command: 'curl https://example.com', description: 'fetch' }),
      toolUse('bash', {
        command:
          "env; for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done; " +
          'echo found=$(grep -rl "sk-ant-planted-opencode-key-4K2[W]" "$PWD" "$HOME" /tmp /etc /run 2>/dev/null | wc -l)',
        description: 'look around',
      }),
      { text: 'Wrote the file; curl was refused.' },
    )
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    expect(started.status).toBe(202)
    const run = await settledRun(c, started.body.run.id)
    expect(run.run.status, run.run.error).toBe('success')
    const root = envRoot('oc-work')
    expect(readFileSync(path.join(root, 'made-by-opencode.txt'), 'utf8')).toBe('opencode-was-here\n')

    const parts = (run.transcript as any[]).flatMap((m) => m.parts ?? [])
    const [write, curl, look] = parts.filter((p: any) => p.type === 'tool-Bash')
    expect(write).toMatchObject({ state: 'output-available' })
    expect(JSON.stringify(write.output)).toContain('opencode-was-here')
    expect(curl.state).toBe('output-error')
    expect(curl.errorText).toContain('deny: curl *')
    const seen = JSON.stringify(look.output)
    expect(seen).toContain('found=0')
    expect(seen).not.toContain(KEY)
    expect(parts.some((p: any) => p.type === 'text' && p.text.includes('curl was refused'))).toBe(true)

    const rows = await queryRows<{ decision: string; subject: string }>(
      agent.app.server.db.db,
      sql`select decision, subject from environment_audit where run_id = ${started.body.run.id} and kind = 'command'`,
    )
    expect(rows.filter((r) => r.decision === 'denied')).toEqual([
      { decision: 'denied', subject: 'curl https://example.com' },
    ])
    expect(rows.filter((r) => r.decision === 'allowed').length).toBe(2)

    expect(run.run.usage.inputTokens).toBeGreaterThan(0)
    expect(run.run.usage.costUsd).toBeGreaterThan(0)
    // The provider got the real key on every call; the CLI held only the run's token.
    const calls = fake.requests.filter((r) =>
      JSON.stringify(r.body.messages ?? []).includes('Task oc-writer:'),
    )
    expect(calls.length).toBe(4)
    expect(calls.every((r) => r.headers['x-api-key'] === KEY)).toBe(true)
    // The environment's instructions reached the model (OpenCode reads AGENTS.md).
    expect(JSON.stringify(calls[0]!.body.system)).toContain('Always answer in English.')
    expect(readdirSync(root).filter((f) => f.startsWith('.harness-'))).toEqual([])
  }, 180_000)
})

describe('an opencode job in a machine environment', () => {
  let machine: Awaited<ReturnType<typeof connectMachine>> | undefined
  afterAll(async () => {
    await machine?.close()
  })

  it("runs OpenCode on the person's machine through the same per-run endpoint and policy", async () => {
    const c = team.member.client
    // The person's machine has the CLI installed where this variable says.
    process.env.OPENCODE_PATH = openCode.locate()!
    machine = await connectMachine(c, agent.app.baseUrl, 'desk')
    const dir = machine.dir
    const definition =
      '---\nprovider: machine:desk\npolicy:\n  commands:\n    deny: ["rm *"]\n---\nMy desk.\n'
    expect((await c.put(`${R}/personal/environments/desk.md`, definition)).status).toBe(201)
    const job = await c.post('/_agent-native/jobs', {
      name: 'oc-on-desk',
      schedule: '0 7 * * 1-5',
      instructions: 'Task oc-on-desk: write it on the desk.',
      environment: 'desk',
      harness: 'opencode',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
    fake.replyWhen(
      'Task oc-on-desk:',
      toolUse('bash', { command: 'echo from-the-desk > desk.txt && cat desk.txt', description: 'write' }),
      toolUse('bash', { command: 'rm desk.txt', description: 'remove' }),
      { text: 'Wrote it on the desk.' },
    )
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    expect(started.status).toBe(202)
    const run = await settledRun(c, started.body.run.id)
    expect(run.run.status, run.run.error).toBe('success')
    expect(readFileSync(path.join(dir, 'desk.txt'), 'utf8')).toBe('from-the-desk\n')
    const parts = (run.transcript as any[]).flatMap((m) => m.parts ?? [])
    const [write, remove] = parts.filter((p: any) => p.type === 'tool-Bash')
    expect(JSON.stringify(write.output)).toContain('from-the-desk')
    expect(remove.state).toBe('output-error') // the environment's policy, through the same plugin
    expect(run.run.usage.costUsd).toBeGreaterThan(0)
    const calls = fake.requests.filter((r) =>
      JSON.stringify(r.body.messages ?? []).includes('Task oc-on-desk:'),
    )
    expect(calls.length).toBe(3)
    expect(calls.every((r) => r.headers['x-api-key'] === KEY)).toBe(true)
    expect(readdirSync(dir).filter((f) => f.startsWith('.harness-'))).toEqual([])
  }, 180_000)
})
