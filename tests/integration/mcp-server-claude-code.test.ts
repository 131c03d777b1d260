/**
 * End to end with a real third-party MCP client: the Claude Code CLI (pinned, `npm run
 * harness:install claude-code`), given Clockwork's MCP endpoint and a personal access token in an
 * `--mcp-config` file, driven by the fake model to call `mcp__clockwork__create_job`. The job
 * appears in the person's jobs list, its audit names the token, and the CLI only saw the tools the
 * token's scopes allow.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { claudeCode } from '#server/harness/claude-code.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-mcp-cli-0321'
const run = promisify(execFile)

let agent: AgentApp
let dir: string

beforeAll(async () => {
  if (!claudeCode.locate())
    throw new Error('Claude Code is not installed: npm run harness:install claude-code')
  agent = await startAgentApp({ key: KEY })
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-mcp-cli-'))
}, 120_000)
afterAll(async () => {
  await agent?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

it('Claude Code creates a job through mcp__clockwork__create_job, and the audit names the token', async () => {
  const { creator } = agent.team
  const made = await creator.client.post('/_agent-native/access-tokens', {
    name: 'Claude Code on my laptop',
    scopes: ['jobs:read', 'jobs:write'],
  })
  expect(made.status).toBe(201)
  const { token, summary } = made.body as { token: string; summary: { id: string } }

  const config = path.join(dir, 'mcp.json')
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        clockwork: {
          type: 'http',
          url: `${agent.app.baseUrl}/_agent-native/mcp`,
          headers: { Authorization: `Bearer ${token}` },
        },
      },
    }),
  )
  const prompt = 'Every weekday at 7, summarise the open PRs (cli-e2e): schedule that in Clockwork.'
  agent.fake.replyWhen(
    '(cli-e2e)',
    toolUse('mcp__clockwork__create_job', {
      name: 'open-prs',
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'Summarise the open pull requests.',
    }),
    { text: 'Scheduled: every weekday at 07:00 (Europe/Berlin).' },
  )
  const home = path.join(dir, 'home')
  const { stdout } = await run(
    claudeCode.locate()!,
    [
      '-p',
      prompt,
      '--output-format',
      'json',
      '--model',
      'claude-sonnet-4-5',
      '--mcp-config',
      config,
      '--strict-mcp-config',
      '--allowedTools',
      'mcp__clockwork__create_job',
      '--permission-mode',
      'default',
    ],
    {
      cwd: dir,
      timeout: 120_000,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        // Without /v1: the CLI appends /v1/messages itself.
        ANTHROPIC_BASE_URL: agent.fake.baseURL.replace(/\/v1$/, ''),
        ANTHROPIC_API_KEY: KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        // Clockwork's tools in the tool list itself (not deferred behind ToolSearch), schemas included.
        ENABLE_TOOL_SEARCH: 'false',
      },
    },
  )
  const result = JSON.parse(stdout) as { is_error: boolean; result: string }
  expect(result.is_error, stdout).toBe(false)
  expect(result.result).toContain('Scheduled: every weekday at 07:00')

  // The CLI discovered Clockwork's tools over MCP: the token's scopes, no more.
  const fromCli = agent.fake.requests.filter((r) =>
    JSON.stringify(r.body.messages ?? []).includes('(cli-e2e)'),
  )
  const offered = (fromCli[0]!.body.tools as { name: string }[])
    .map((t) => t.name)
    .filter((n) => n.startsWith('mcp__'))
  expect(offered).toContain('mcp__clockwork__create_job')
  expect(offered).not.toContain('mcp__clockwork__run_job')
  const create = (fromCli[0]!.body.tools as { name: string; input_schema: { properties: object } }[]).find(
    (t) => t.name === 'mcp__clockwork__create_job',
  )!
  expect(Object.keys(create.input_schema.properties)).toEqual(
    expect.arrayContaining(['name', 'schedule', 'timezone', 'instructions']),
  )
  // Its tool result (what Clockwork answered) went back to the model.
  const answered = JSON.stringify(fromCli.at(-1)!.body.messages)
  expect(answered).toContain('Created job open-prs, every weekday at 07:00 (Europe/Berlin)')

  const jobs = await creator.client.get('/_agent-native/jobs')
  const job = jobs.body.jobs.find((j: { name: string }) => j.name === 'open-prs')
  expect(job).toMatchObject({ scope: 'personal', schedule: '0 7 * * 1-5', timezone: 'Europe/Berlin' })
  const audit = await creator.client.get(`/_agent-native/jobs/${job.id}/audit`)
  expect(audit.body.entries[0]).toMatchObject({ action: 'create', actor: { email: creator.email } })
  expect(audit.body.entries[0].note).toBe(`via access token "Claude Code on my laptop" (${summary.id})`)
}, 180_000)
