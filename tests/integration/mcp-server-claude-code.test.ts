/**
 * End to end with a real third-party MCP client: the Claude Code CLI (pinned, `npm run
 * harness:install claude-code`), given Clockwork's MCP endpoint and a personal access token both
 * ways the docs show (`claude mcp add --transport http … --header` and an `--mcp-config` file),
 * driven by the fake model to call `mcp__clockwork__create_job`. The job appears in the person's
 * jobs list, its audit names the token, and the CLI only saw the tools the token's scopes allow.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claudeCode } from '#server/harness/claude-code.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-mcp-cli-0321'
const execFileAsync = promisify(execFile)

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

/** Runs the CLI in its own folder with a throw-away home, against the fake model (async: the server is in this process). */
function claude(folder: string, args: string[], extraEnv: Record<string, string> = {}) {
  return execFileAsync(claudeCode.locate()!, args, {
    cwd: folder,
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: path.join(folder, 'home'),
      // Without /v1: the CLI appends /v1/messages itself.
      ANTHROPIC_BASE_URL: agent.fake.baseURL.replace(/\/v1$/, ''),
      ANTHROPIC_API_KEY: KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      // Clockwork's tools in the tool list itself (not deferred behind ToolSearch), schemas included.
      ENABLE_TOOL_SEARCH: 'false',
      // Print mode connects MCP servers in the background by default, so on a loaded machine the first
      // model call could go out before Clockwork's tools are listed: wait for the connection.
      MCP_CONNECTION_NONBLOCKING: 'false',
      ...extraEnv,
    },
  })
}

async function makeToken(name: string) {
  const made = await agent.team.creator.client.post('/_agent-native/access-tokens', {
    name,
    scopes: ['jobs:read', 'jobs:write'],
  })
  expect(made.status).toBe(201)
  return made.body as { token: string; summary: { id: string } }
}

/** Scripts the fake model for one prompt tag, runs the CLI, and checks what it saw and did. */
async function createThroughClaude(tag: string, jobName: string, folder: string, configArgs: string[]) {
  const prompt = `Every weekday at 7, summarise the open PRs (${tag}): schedule that in Clockwork.`
  agent.fake.replyWhen(
    `(${tag})`,
    toolUse('mcp__clockwork__create_job', {
      name: jobName,
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'Summarise the open pull requests.',
    }),
    { text: 'Scheduled: every weekday at 07:00 (Europe/Berlin).' },
  )
  const { stdout } = await claude(folder, [
    '-p',
    prompt,
    '--output-format',
    'json',
    '--model',
    'claude-sonnet-4-5',
    ...configArgs,
    // Claude Code asks before an MCP tool; this one is allowed up front.
    '--allowedTools',
    'mcp__clockwork__create_job',
    '--permission-mode',
    'default',
  ])
  const result = JSON.parse(stdout) as { is_error: boolean; result: string }
  expect(result.is_error, stdout).toBe(false)
  expect(result.result).toContain('Scheduled: every weekday at 07:00')

  // The CLI discovered Clockwork's tools over MCP: the token's scopes, no more.
  const fromCli = agent.fake.requests.filter((r) =>
    JSON.stringify(r.body.messages ?? []).includes(`(${tag})`),
  )
  const tools = fromCli[0]!.body.tools as { name: string; input_schema: { properties: object } }[]
  const offered = tools.map((t) => t.name).filter((n) => n.startsWith('mcp__'))
  expect(offered).toContain('mcp__clockwork__create_job')
  expect(offered).not.toContain('mcp__clockwork__run_job')
  const create = tools.find((t) => t.name === 'mcp__clockwork__create_job')!
  expect(Object.keys(create.input_schema.properties)).toEqual(
    expect.arrayContaining(['name', 'schedule', 'timezone', 'instructions']),
  )
  // Clockwork's answer went back to the model.
  expect(JSON.stringify(fromCli.at(-1)!.body.messages)).toContain(
    `Created job ${jobName}, every weekday at 07:00 (Europe/Berlin)`,
  )
}

async function expectJobWithTokenInAudit(jobName: string, tokenName: string, tokenId: string) {
  const { creator } = agent.team
  const jobs = await creator.client.get('/_agent-native/jobs')
  const job = jobs.body.jobs.find((j: { name: string }) => j.name === jobName)
  expect(job).toMatchObject({ scope: 'personal', schedule: '0 7 * * 1-5', timezone: 'Europe/Berlin' })
  const audit = await creator.client.get(`/_agent-native/jobs/${job.id}/audit`)
  expect(audit.body.entries[0]).toMatchObject({ action: 'create', actor: { email: creator.email } })
  expect(audit.body.entries[0].note).toBe(`via access token "${tokenName}" (${tokenId})`)
}

describe('Claude Code as an MCP client of Clockwork', () => {
  it('added with `claude mcp add --transport http … --header`, it creates a job through mcp__clockwork__create_job', async () => {
    const folder = path.join(dir, 'mcp-add')
    mkdirSync(folder, { recursive: true })
    const { token, summary } = await makeToken('Claude Code on my laptop')
    await claude(folder, [
      'mcp',
      'add',
      '--transport',
      'http',
      'clockwork',
      `${agent.app.baseUrl}/_agent-native/mcp`,
      '--header',
      `Authorization: Bearer ${token}`,
    ])
    await createThroughClaude('cli-e2e-add', 'open-prs', folder, [])
    await expectJobWithTokenInAudit('open-prs', 'Claude Code on my laptop', summary.id)
  }, 180_000)

  it('configured with --mcp-config, it creates a job the same way, and cannot delete it unasked', async () => {
    const folder = path.join(dir, 'mcp-config')
    mkdirSync(folder, { recursive: true })
    const { token, summary } = await makeToken('Claude Code in CI')
    const config = path.join(folder, 'clockwork.json')
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
    await createThroughClaude('cli-e2e-config', 'open-prs-ci', folder, [
      '--mcp-config',
      config,
      '--strict-mcp-config',
    ])
    await expectJobWithTokenInAudit('open-prs-ci', 'Claude Code in CI', summary.id)

    // A delete the person did not allow: Claude Code asks before an MCP tool it was not told to
    // allow, and in print mode nobody answers, so the call never reaches Clockwork.
    agent.fake.replyWhen(
      '(cli-e2e-delete)',
      toolUse('mcp__clockwork__delete_job', { name: 'open-prs-ci', confirm: true }),
      { text: 'I was not allowed to delete it.' },
    )
    await claude(folder, [
      '-p',
      'Delete the open-prs-ci job (cli-e2e-delete).',
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
    ])
    const asked = agent.fake.requests.filter((r) =>
      JSON.stringify(r.body.messages ?? []).includes('(cli-e2e-delete)'),
    )
    const toolResult = JSON.stringify(asked.at(-1)!.body.messages)
    expect(toolResult).toContain('requested permissions to use mcp__clockwork__delete_job')
    expect(toolResult).not.toContain('Deleted job open-prs-ci')
    const jobs = await agent.team.creator.client.get('/_agent-native/jobs')
    expect(jobs.body.jobs.map((j: { name: string }) => j.name)).toContain('open-prs-ci')
  }, 180_000)
})
