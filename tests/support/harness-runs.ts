/**
 * What the harness integration files share (harness.test.ts, harness-docker.test.ts,
 * harness-control.test.ts): an agent app for the real Claude Code CLI, a harness run waited for
 * with the CLI's own time, its `Bash` steps, the model requests it made, and the policy's denial
 * of a `curl`, seen in the run and the environment's audit.
 */
import { sql } from 'drizzle-orm'
import { expect } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { claudeCode } from '#server/harness/claude-code.ts'
import { startAgentApp, type AgentApp, type AgentAppOptions } from './agent-app.ts'
import type { ApiClient } from './api-client.ts'
import { toolUse, type FakeAnthropic } from './fake-anthropic.ts'
import { waitForRun, type RunBody } from './runs.ts'

/** An agent app for runs of the real CLI, which must be installed (`npm run harness:install claude-code`). */
export async function startHarnessApp(options: AgentAppOptions): Promise<AgentApp> {
  if (!claudeCode.locate())
    throw new Error('Claude Code is not installed: npm run harness:install claude-code')
  return startAgentApp(options)
}

/** A harness run takes the real CLI's time: a longer hang guard than the fixture's. */
export const settledRun = (c: ApiClient, runId: string) => waitForRun(c, runId, { timeout: 90_000 })

/** The requests that came from the CLI for one job (its prompt names the job: `Task <name>:`). */
export const cliRequests = (fake: FakeAnthropic, name: string) =>
  fake.requests.filter((r) => JSON.stringify(r.body.messages ?? []).includes(`Task ${name}:`))

export const bashParts = (run: any) =>
  (run.transcript as any[]).flatMap((m) => m.parts ?? []).filter((p: any) => p.type === 'tool-Bash')

/** Runs job `name` once, the model answering its CLI with `replies` in turn; returns the settled run. */
export async function runWithReplies(
  agent: AgentApp,
  c: ApiClient,
  job: { id: string },
  name: string,
  ...replies: Parameters<FakeAnthropic['replyWhen']>[1][]
): Promise<RunBody> {
  agent.fake.replyWhen(`Task ${name}:`, ...replies)
  const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
  expect(started.status).toBe(202)
  return settledRun(c, started.body.run.id)
}

/** The environment policy that {@link expectCurlDenied} runs against. */
export const DENY_CURL = 'policy:\n  commands:\n    deny: ["curl *"]\n'

/** Runs job `name` (in an environment with {@link DENY_CURL}) whose CLI tries `curl`: refused, audited. */
export async function expectCurlDenied(agent: AgentApp, c: ApiClient, job: { id: string }, name: string) {
  const run = await runWithReplies(
    agent,
    c,
    job,
    name,
    toolUse('Bash', { command: 'curl https://example.com', description: 'fetch' }),
    { text: 'The policy refused curl.' },
  )
  const [call] = bashParts(run)
  expect(call.state).toBe('output-error')
  expect(call.errorText).toContain('deny: curl *')
  const rows = await queryRows<{ decision: string; rule: string }>(
    agent.app.server.db.db,
    sql`select decision, rule from environment_audit where run_id = ${run.run.id} and kind = 'command'`,
  )
  expect(rows).toEqual([{ decision: 'denied', rule: 'deny: curl *' }])
}

/**
 * Runs job `name` whose CLI writes `<name>.txt` (printing it and its folder), then looks for `key`
 * (the deployment's) in its variables, every process's arguments and its files: the run succeeds
 * with both steps, tokens and cost; the CLI held the run's token only, the provider got the key.
 */
export async function expectWriteRun(
  agent: AgentApp,
  c: ApiClient,
  job: { id: string },
  name: string,
  key: string,
): Promise<{ run: RunBody; write: any }> {
  const run = await runWithReplies(
    agent,
    c,
    job,
    name,
    toolUse('Bash', {
      command: `echo ${name}-was-here > ${name}.txt && cat ${name}.txt && pwd`,
      description: 'write a file',
    }),
    toolUse('Bash', {
      command:
        "env; for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done; " +
        // The pattern never matches itself (its last character is a class).
        `echo found=$(grep -rl "${key.slice(0, -1)}[${key.slice(-1)}]" "$PWD" "$HOME" /tmp /etc /run 2>/dev/null | wc -l)`,
      description: 'look around',
    }),
    { text: 'Wrote the file.' },
  )
  expect(run.run.status, run.run.error).toBe('success')
  const [write, look] = bashParts(run)
  expect(write).toMatchObject({ state: 'output-available' })
  expect(JSON.stringify(write.output)).toContain(`${name}-was-here`)
  const seen = JSON.stringify(look.output)
  expect(seen).toContain('found=0') // grep found nothing
  expect(seen).toContain('ANTHROPIC_API_KEY=hrn_') // the run's token, not the key
  expect(seen).not.toContain(key)
  expect(run.run.usage.inputTokens).toBeGreaterThan(0)
  expect(run.run.usage.outputTokens).toBeGreaterThan(0)
  expect(run.run.usage.costUsd).toBeGreaterThan(0)
  const calls = cliRequests(agent.fake, name)
  expect(calls.length).toBe(3)
  expect(calls.every((r) => r.headers['x-api-key'] === key)).toBe(true)
  return { run, write }
}

/** The command a waiting run's CLI runs (Claude Code refuses a long `sleep`). */
export const WAIT_COMMAND = 'tail -f /dev/null'

/** Starts job `name` whose CLI runs {@link WAIT_COMMAND}, which never ends; returns the run's id. */
export async function startWaitingRun(agent: AgentApp, c: ApiClient, job: { id: string }, name: string) {
  agent.fake.replyWhen(
    `Task ${name}:`,
    toolUse('Bash', { command: WAIT_COMMAND, description: 'wait', timeout: 600000 }),
  )
  const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
  expect(started.status).toBe(202)
  return started.body.run.id as string
}

/** The environment policy that {@link expectPolicyHosts} runs against. */
export const ALLOW_ONE_HOST = 'policy:\n  network:\n    allow: ["allowed.invalid"]\n'

/**
 * Runs job `name` (in an environment with {@link ALLOW_ONE_HOST}) whose CLI tries two hosts with
 * curl. `.invalid` never resolves: the allowed name gets as far as the proxy's lookup (502); the
 * other is refused by the proxy (403); without the proxy curl could not even try (000).
 */
export async function expectPolicyHosts(agent: AgentApp, c: ApiClient, job: { id: string }, name: string) {
  const status = (host: string) => `curl -s -m 5 -o /dev/null -w '${host}=%{http_code} ' http://${host}/`
  const run = await runWithReplies(
    agent,
    c,
    job,
    name,
    toolUse('Bash', {
      command: `${status('allowed.invalid')}; ${status('other.invalid')}; true`,
      description: 'reach out',
    }),
    { text: 'Tried both.' },
  )
  expect(run.run.status, run.run.error).toBe('success')
  const output = JSON.stringify(bashParts(run)[0].output)
  expect(output).toContain('allowed.invalid=502')
  expect(output).toContain('other.invalid=403')
}

/** A personal `provider: local` environment `env` and a job `name` in it whose agent is Claude Code. */
export async function localHarnessJob(c: ApiClient, env: string, name: string): Promise<{ id: string }> {
  const definition = '---\nprovider: local\n---\nA workspace.\n'
  expect((await c.put(`/_agent-native/resources/personal/environments/${env}.md`, definition)).status).toBe(
    201,
  )
  const job = await c.post('/_agent-native/jobs', {
    name,
    scope: 'personal',
    schedule: '0 7 * * 1-5',
    instructions: `Task ${name}: keep the build green.`,
    environment: env,
    harness: 'claude-code',
  })
  expect(job.status, JSON.stringify(job.body)).toBe(201)
  return job.body.job
}

/**
 * Shell for a command in the run's sandbox that posts `file` to the run's own endpoint at `at`
 * (after its token: `/hook`, `/v1/messages`), printing `<at>=<status> `.
 */
export const postToEndpoint = (file: string, at: string) =>
  `curl -s -o /dev/null -w '${at}=%{http_code} ' -H 'content-type: application/json' ` +
  `--data-binary @${file} "$ANTHROPIC_BASE_URL${at}"`

/**
 * Job `name`, a Claude Code run in `c`'s personal environment `env` (a local one; `fields.envYaml`
 * adds to its front matter, the other fields to the job's).
 */
export async function harnessJob(
  c: ApiClient,
  name: string,
  env: string,
  fields: Record<string, unknown> = {},
) {
  const definition = `---\nprovider: local\n${(fields.envYaml as string) ?? ''}---\nWork carefully.\n`
  expect((await c.put(`/_agent-native/resources/personal/environments/${env}.md`, definition)).status).toBe(
    201,
  )
  const { envYaml: _, ...rest } = fields
  const job = await c.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * 1-5',
    instructions: `Task ${name}: do the thing.`,
    environment: env,
    harness: 'claude-code',
    ...rest,
  })
  expect(job.status).toBe(201)
  return job.body.job as { id: string }
}
