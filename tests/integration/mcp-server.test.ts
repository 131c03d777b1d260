/**
 * Clockwork as an MCP server: the official SDK client (StreamableHTTPClientTransport) against the
 * real server over real HTTP and Postgres, authenticated by personal access tokens. A job made and
 * run through it runs on the real scheduler with the agent executor (the fake model answers).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { connectMcp } from '#tests/support/mcp-client.ts'
import { createTeam, type TeamPerson } from '#tests/support/team.ts'

const KEY = 'sk-ant-deployment-mcp-0320'
const TOKENS = '/_agent-native/access-tokens'

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, scheduler: true, env: { MCP_RATE_LIMIT_PER_MINUTE: '40' } })
}, 120_000)
afterAll(() => agent?.close())

async function makeToken(person: TeamPerson, scopes: string[], name = `token ${scopes.join(' ')}`) {
  const res = await person.client.post(TOKENS, { name, scopes })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { token: string; summary: { id: string; name: string; scopes: string[] } }
}

const clients: Client[] = []
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined)
})

async function connect(token: string) {
  const client = await connectMcp(agent.app.baseUrl, token)
  clients.push(client)
  return client
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort()

/** A tool's JSON answer and whether it was an error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as { type: string; text: string }[])[0]!.text
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    // a plain-text refusal
  }
  return { isError: result.isError === true, body }
}

describe('access tokens', () => {
  it('are shown once, listed without the secret, and refuse bad input naming every field', async () => {
    const { creator } = agent.team
    const bad = await creator.client.post(TOKENS, { name: '', scopes: ['jobs:read', 'jobs:delete'] })
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('name')
    expect(bad.body.error.message).toMatch(/name: is required/)
    expect(bad.body.error.message).toMatch(/scopes: must each be one of/)
    // Each bad field on its own too, so a form can mark every one (invariant 7).
    expect(bad.body.error.fields.map((p: { field: string }) => p.field)).toEqual(['name', 'scopes'])
    const missing = await creator.client.post(TOKENS, { extra: 1 })
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toMatch(/name: .*scopes: .*extra: unknown field/)
    const { token, summary } = await makeToken(creator, ['runs:read', 'jobs:read'], 'laptop')
    expect(token).toMatch(/^cwp_/)
    expect(summary.scopes).toEqual(['jobs:read', 'runs:read'])
    const list = await creator.client.get(TOKENS)
    const listed = list.body.tokens.find((t: { id: string }) => t.id === summary.id)
    expect(listed).toMatchObject({ name: 'laptop', lastUsedAt: null })
    expect(JSON.stringify(list.body)).not.toContain(token)
    // Another person cannot see or revoke it.
    expect((await agent.team.member.client.get(TOKENS)).body.tokens).toEqual([])
    expect((await agent.team.member.client.delete(`${TOKENS}/${summary.id}`)).status).toBe(404)
    // A token cannot make tokens (only a session can).
    const res = await fetch(`${agent.app.baseUrl}${TOKENS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'more', scopes: ['jobs:write'] }),
    })
    expect(res.status).toBe(401)
  })

  it('without a valid token the endpoint answers 401', async () => {
    const url = `${agent.app.baseUrl}/_agent-native/mcp`
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(401)
    const forged = { ...headers, authorization: 'Bearer cwp_not-a-real-token' }
    expect((await fetch(url, { method: 'POST', headers: forged, body })).status).toBe(401)
  })
})

describe('the MCP server', () => {
  it('lists the tools each scope allows', async () => {
    const { creator } = agent.team
    const read = await connect((await makeToken(creator, ['jobs:read'])).token)
    expect(await toolNames(read)).toEqual(['get_job', 'list_environments', 'list_jobs', 'preview_schedule'])
    const runs = await connect((await makeToken(creator, ['runs:read', 'runs:write'])).token)
    expect(await toolNames(runs)).toEqual(['get_run', 'list_runs', 'run_job'])
    const all = await connect(
      (await makeToken(creator, ['jobs:read', 'jobs:write', 'runs:read', 'runs:write'])).token,
    )
    expect(await toolNames(all)).toEqual([
      'create_job',
      'delete_job',
      'edit_job_file',
      'get_job',
      'get_run',
      'list_environments',
      'list_jobs',
      'list_runs',
      'pause_job',
      'preview_schedule',
      'resume_job',
      'run_job',
      'update_job',
    ])
    const create = (await all.listTools()).tools.find((t) => t.name === 'create_job')!
    // The field registry's fields, as the built-in agent's manage-jobs tool has them.
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['name', 'schedule', 'timezone', 'instructions', 'at', 'every', 'enabled']),
    )
    expect((await all.listPrompts()).prompts.map((p) => p.name)).toEqual(['schedule-a-job'])
  })

  it('creates a job, runs it and reads its transcript, with the token named in the audit', async () => {
    const { creator } = agent.team
    const { token, summary } = await makeToken(
      creator,
      ['jobs:read', 'jobs:write', 'runs:read', 'runs:write'],
      'CI bot',
    )
    const client = await connect(token)
    const preview = await call(client, 'preview_schedule', {
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
    })
    expect(preview.body).toMatchObject({ ok: true, action: 'preview', preview: { valid: true } })
    expect(preview.body.summary).toBe('Every weekday at 07:00 (Europe/Berlin)')

    const bad = await call(client, 'create_job', {
      name: 'pr-digest',
      schedule: '0 25 * * *',
      instructions: 'x',
    })
    expect(bad.isError).toBe(true)
    expect(bad.body.error).toMatchObject({ status: 400, field: 'schedule' })

    agent.fake.replyWhen('Summarise the open PRs (mcp)', { text: 'Three PRs are open.' })
    const created = await call(client, 'create_job', {
      name: 'pr-digest',
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'Summarise the open PRs (mcp)',
    })
    expect(created.isError, JSON.stringify(created.body)).toBe(false)
    expect(created.body.summary).toBe('Created job pr-digest, every weekday at 07:00 (Europe/Berlin)')
    const jobId = created.body.job.id as string

    // The person sees it through the API, and its audit names the token.
    const audit = await creator.client.get(`/_agent-native/jobs/${jobId}/audit`)
    expect(audit.body.entries[0]).toMatchObject({ action: 'create', actor: { email: creator.email } })
    expect(audit.body.entries[0].note).toContain(`via access token "CI bot" (${summary.id})`)

    const file = await client.readResource({ uri: 'clockwork://jobs/pr-digest' })
    expect((file.contents[0] as { text: string }).text).toMatch(
      /schedule: "0 7 \* \* 1-5"[\s\S]*Summarise the open PRs/,
    )
    const listed = await client.listResources()
    expect(listed.resources.map((r) => r.uri)).toContain('clockwork://jobs/pr-digest')

    const started = await call(client, 'run_job', { name: 'pr-digest' })
    expect(started.isError, JSON.stringify(started.body)).toBe(false)
    const runId = started.body.run.id as string
    expect(started.body.run.reason).toContain('via access token "CI bot"')
    const run = await vi.waitFor(
      async () => {
        const got = await call(client, 'get_run', { runId })
        expect(got.body.run.status).toBe('success')
        return got.body
      },
      { timeout: 30_000, interval: 100 },
    )
    expect(JSON.stringify(run.transcript)).toContain('Three PRs are open.')
    const runs = await call(client, 'list_runs', { name: 'pr-digest' })
    expect(runs.body.runs.map((r: { id: string }) => r.id)).toContain(runId)

    // Pause, then delete: a delete without confirm deletes nothing and says what to ask.
    const paused = await call(client, 'pause_job', { name: 'pr-digest' })
    expect(paused.body.job.enabled).toBe(false)
    const unconfirmed = await call(client, 'delete_job', { name: 'pr-digest' })
    expect(unconfirmed.isError).toBe(true)
    expect(unconfirmed.body).toMatchObject({ confirmationRequired: true, job: { id: jobId } })
    expect((await creator.client.get(`/_agent-native/jobs/${jobId}`)).status).toBe(200)
    const deleted = await call(client, 'delete_job', { name: 'pr-digest', confirm: true })
    expect(deleted.body).toMatchObject({ ok: true, action: 'delete' })
    expect((await creator.client.get(`/_agent-native/jobs/${jobId}`)).status).toBe(404)

    const tokens = (await creator.client.get(TOKENS)).body.tokens
    expect(tokens.find((t: { id: string }) => t.id === summary.id).lastUsedAt).not.toBeNull()
  })

  it('refuses writes with a read-only token, naming the scope', async () => {
    const { creator } = agent.team
    const client = await connect((await makeToken(creator, ['jobs:read', 'runs:read'])).token)
    const refused = await call(client, 'create_job', {
      name: 'sneaky',
      schedule: '0 7 * * *',
      instructions: 'x',
    })
    expect(refused.isError).toBe(true)
    expect(refused.body).toMatch(/create_job needs the jobs:write scope/)
    const run = await call(client, 'run_job', { name: 'anything' })
    expect(run.body).toMatch(/run_job needs the runs:write scope/)
    const jobs = await creator.client.get('/_agent-native/jobs')
    expect(jobs.body.jobs.map((j: { name: string }) => j.name)).not.toContain('sneaky')
  })

  it('refuses a revoked token mid-session', async () => {
    const { creator } = agent.team
    const { token, summary } = await makeToken(creator, ['jobs:read'])
    const client = await connect(token)
    expect((await call(client, 'list_jobs')).body.ok).toBe(true)
    expect((await creator.client.delete(`${TOKENS}/${summary.id}`)).status).toBe(204)
    await expect(client.callTool({ name: 'list_jobs', arguments: {} })).rejects.toThrow(/unauthorized/)
    expect((await creator.client.get(TOKENS)).body.tokens.map((t: { id: string }) => t.id)).not.toContain(
      summary.id,
    )
  })

  it("never shows another organisation's jobs", async () => {
    const { outsider, creator } = agent.team
    const made = await outsider.client.post('/_agent-native/jobs', {
      name: 'outsider-secret',
      schedule: '0 7 * * *',
      instructions: 'The outsider’s own job',
    })
    expect(made.status).toBe(201)
    const client = await connect((await makeToken(creator, ['jobs:read', 'runs:read', 'jobs:write'])).token)
    const list = await call(client, 'list_jobs', {})
    expect(JSON.stringify(list.body)).not.toContain('outsider-secret')
    const byId = await call(client, 'get_job', { id: made.body.job.id })
    expect(byId.body.error).toMatchObject({ status: 404 })
    const runs = await call(client, 'list_runs', { jobId: made.body.job.id })
    expect(runs.body.error).toMatchObject({ status: 404 })
    await expect(client.readResource({ uri: 'clockwork://jobs/outsider-secret' })).rejects.toThrow(
      /No job file/,
    )
    const update = await call(client, 'update_job', { id: made.body.job.id, instructions: 'hijacked' })
    expect(update.body.error).toMatchObject({ status: 404 })
  })

  it('limits each token to its requests a minute', async () => {
    const { creator } = agent.team
    const { token } = await makeToken(creator, ['jobs:read'])
    const url = `${agent.app.baseUrl}/_agent-native/mcp`
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    }
    const statuses: number[] = []
    for (let i = 0; i < 41; i++) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' })
      statuses.push((await fetch(url, { method: 'POST', headers, body })).status)
    }
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true)
    expect(statuses[40]).toBe(429)
    // Another token of the same person has its own budget.
    const other = await connect((await makeToken(creator, ['jobs:read'])).token)
    expect((await call(other, 'list_jobs')).body.ok).toBe(true)
  })

  it('run_job is the agent’s manage-runs tool: an unattended run may not start runs with it', async () => {
    const { creator } = agent.team
    const client = await connect((await makeToken(creator, ['jobs:write', 'runs:read', 'runs:write'])).token)
    const created = await call(client, 'create_job', {
      name: 'self-starter',
      schedule: '0 7 * * *',
      instructions: 'Start yourself again (self-start)',
    })
    expect(created.isError, JSON.stringify(created.body)).toBe(false)
    agent.fake.replyWhen(
      '(self-start)',
      {
        content: [{ type: 'tool_use', name: 'manage-runs', input: { action: 'run', name: 'self-starter' } }],
      },
      { text: 'I could not start it.' },
    )
    const started = await call(client, 'run_job', { name: 'self-starter' })
    const runId = started.body.run.id as string
    const run = await vi.waitFor(
      async () => {
        const got = await call(client, 'get_run', { runId })
        expect(got.body.run.status).toBe('success')
        return got.body
      },
      { timeout: 30_000, interval: 100 },
    )
    expect(JSON.stringify(run.transcript)).toContain('Unattended runs may read runs but not start them')
    const runs = await call(client, 'list_runs', { name: 'self-starter' })
    expect(runs.body.runs).toHaveLength(1)
  })

  it('acts with the person’s rights: a member’s token may read a shared job but not change it', async () => {
    const { creator, member } = agent.team
    const shared = await creator.client.post('/_agent-native/jobs', {
      name: 'team-report',
      scope: 'shared',
      schedule: '0 8 * * 1',
      instructions: 'Write the team report',
    })
    expect(shared.status).toBe(201)
    const client = await connect((await makeToken(member, ['jobs:read', 'jobs:write', 'runs:write'])).token)
    const read = await call(client, 'get_job', { name: 'team-report', scope: 'shared' })
    expect(read.body).toMatchObject({ ok: true, job: { canEdit: false } })
    const update = await call(client, 'update_job', { id: shared.body.job.id, instructions: 'Mine now' })
    expect(update.body.error).toMatchObject({ status: 403 })
    const run = await call(client, 'run_job', { jobId: shared.body.job.id })
    expect(run.body.error).toMatchObject({ status: 403 })
    const del = await call(client, 'delete_job', { id: shared.body.job.id, confirm: true })
    expect(del.body.error).toMatchObject({ status: 403 })
    const after = await creator.client.get(`/_agent-native/jobs/${shared.body.job.id}`)
    expect(after.body.job.instructions).toBe('Write the team report')
  })

  it('refuses the token of someone who left the organisation', async () => {
    const team = await createTeam(agent.app)
    const { token } = await makeToken(team.member, ['jobs:read'])
    const client = await connect(token)
    expect((await call(client, 'list_jobs')).body.ok).toBe(true)
    const removed = await team.owner.client.post('/_agent-native/auth/organization/remove-member', {
      memberIdOrEmail: team.member.email,
      organizationId: team.orgId,
    })
    expect(removed.status).toBe(200)
    await expect(client.callTool({ name: 'list_jobs', arguments: {} })).rejects.toThrow(/unauthorized/)
  })

  it('serves job files as resources and saves a proposed edit through the jobs service', async () => {
    const { creator } = agent.team
    const { token, summary } = await makeToken(creator, ['jobs:read', 'jobs:write'], 'editor')
    const client = await connect(token)
    const made = await call(client, 'create_job', {
      name: 'weekly-notes',
      schedule: '0 9 * * 1',
      timezone: 'UTC',
      instructions: 'Collect the notes.',
    })
    expect(made.isError, JSON.stringify(made.body)).toBe(false)
    const uri = 'clockwork://jobs/weekly-notes'
    const text = ((await client.readResource({ uri })).contents[0] as { text: string }).text
    const edited = text
      .replace('schedule: "0 9 * * 1"', 'schedule: "30 9 * * 1"')
      .replace('Collect', 'Gather')
    const bad = await call(client, 'edit_job_file', {
      name: 'weekly-notes',
      content: text.replace('schedule: "0 9 * * 1"', 'schedule: "nope"'),
    })
    expect(bad.isError).toBe(true)
    expect(bad.body.error).toMatchObject({ status: 400, field: 'schedule' })
    const saved = await call(client, 'edit_job_file', { name: 'weekly-notes', content: edited })
    expect(saved.isError, JSON.stringify(saved.body)).toBe(false)
    const job = await call(client, 'get_job', { name: 'weekly-notes' })
    expect(job.body.job).toMatchObject({ schedule: '30 9 * * 1', instructions: 'Gather the notes.' })
    const audit = await creator.client.get(`/_agent-native/jobs/${job.body.job.id}/audit`)
    expect(audit.body.entries[0].note).toBe(
      `Saved as personal/jobs/weekly-notes.md; via access token "editor" (${summary.id})`,
    )

    const prompt = await client.getPrompt({
      name: 'schedule-a-job',
      arguments: { task: 'summarise the open PRs', when: 'every weekday at 7' },
    })
    const message = (prompt.messages[0]!.content as { text: string }).text
    expect(message).toContain('Schedule this in Clockwork: summarise the open PRs, every weekday at 7')
    expect(message).toContain('create_job')

    const reader = await connect((await makeToken(creator, ['jobs:read'])).token)
    const refused = await call(reader, 'edit_job_file', { name: 'weekly-notes', content: text })
    expect(refused.body).toMatch(/edit_job_file needs the jobs:write scope/)
    // The prompt is for writing tokens: a read-only token's server offers no prompts at all.
    expect(reader.getServerCapabilities()?.prompts).toBeUndefined()
    expect(client.getServerCapabilities()?.prompts).toBeDefined()
  })
})
