/**
 * Environments through the real agent tools over real HTTP, with the fake model: the agent writes
 * a failing script, reads the error, edits it and runs it green; a stored secret is injected but
 * never reaches the transcript, the audit or the model; a command the policy marks `ask` stops at
 * an approval card in chat and is denied, with the reason, in an unattended run; and an invalid
 * `environments/<name>.md` is refused on every path that writes workspace files (the resources API,
 * the workspace page, the agent's workspace tool in chat and in a run), none of which imports the
 * check: start-up installs it once (server/http/server.ts), so a path added later is covered too.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleWorkspaceAction } from '#server/pages/workspace-page.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { waitForRun } from '#tests/support/runs.ts'

const KEY = 'sk-ant-deployment-env-0012'
const SECRET_VALUE = 'ghp-very-secret-token-9731'
const R = '/_agent-native/resources'
const HASH = createHash('sha256').update(SECRET_VALUE).digest('hex').slice(0, 16)

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, environmentsDir: 'clockwork-envs-', scheduler: true })
  ;({ app, team, fake } = agent)
})
afterAll(() => agent?.close())
beforeEach(() => {
  fake.requests.length = 0
})

/** Every tool_result text the model was sent, in order. */
const toolResultsSeen = () =>
  fake.requests.flatMap((r) =>
    (r.body.messages as any[]).flatMap((m) =>
      Array.isArray(m.content)
        ? m.content.filter((c: any) => c.type === 'tool_result').map((c: any) => JSON.stringify(c.content))
        : [],
    ),
  )

describe('the write, run, fix loop', () => {
  it('writes a failing script, reads the error, edits it and runs it green', async () => {
    fake.reply(
      toolUse('write_file', { path: 'app.js', content: 'console.log(greting)\n' }),
      toolUse('run_command', { command: 'node app.js' }),
      toolUse('edit_file', { path: 'app.js', old: 'greting', new: '"hello"' }),
      toolUse('run_command', { command: 'node app.js' }),
      toolUse('list_directory', {}),
      { text: 'Fixed: it prints hello.' },
    )
    const turn = await sendChat(team.member.client, { message: userText('write and run a hello script') })
    expect(turn.status).toBe(200)
    const runs = toolParts(turn.reply, 'run_command')
    expect(runs[0].output).toMatchObject({ ok: true, environment: 'scratch', exitCode: 1 })
    expect(runs[0].output.stderr).toMatch(/ReferenceError: greting is not defined/)
    expect(runs[1].output).toMatchObject({ ok: true, exitCode: 0, stdout: 'hello\n' })
    expect(toolParts(turn.reply, 'list_directory')[0].output.entries).toEqual(
      expect.arrayContaining([{ path: 'app.js', type: 'file', size: 21 }]),
    )
    // The model was shown the full error before it edited the file.
    expect(toolResultsSeen().some((t) => t.includes('ReferenceError: greting is not defined'))).toBe(true)
    // Every command and write is audited, with who and which thread.
    const audit = await queryRows<{
      kind: string
      subject: string
      decision: string
      exit_code: number | null
      thread_id: string
    }>(
      app.server.db.db,
      sql`select kind, subject, decision, exit_code, thread_id from environment_audit order by id`,
    )
    expect(audit.map((a) => [a.kind, a.subject, a.decision, a.exit_code])).toEqual([
      ['write', 'app.js', 'allowed', null],
      ['command', 'node app.js', 'allowed', 1],
      ['write', 'app.js', 'allowed', null],
      ['command', 'node app.js', 'allowed', 0],
    ])
    expect(new Set(audit.map((a) => a.thread_id))).toEqual(new Set([turn.threadId]))
  })

  it('refuses paths that leave the environment', async () => {
    fake.reply(toolUse('read_file', { path: '../../etc/passwd' }), { text: 'Refused.' })
    const turn = await sendChat(team.member.client, { message: userText('read /etc/passwd') })
    expect(toolParts(turn.reply, 'read_file')[0].output).toMatchObject({ ok: false, error: { status: 400 } })
  })
})

describe('secrets', () => {
  it('are write-only, injected into commands, and never in the transcript, audit or model requests', async () => {
    const c = team.member.client
    const saved = await c.request('PUT', '/_agent-native/secrets/personal/API_TOKEN', { value: SECRET_VALUE })
    expect(saved.status).toBe(200)
    expect(JSON.stringify((await c.get('/_agent-native/secrets/personal/API_TOKEN')).body)).not.toContain(
      SECRET_VALUE,
    )
    expect((await c.get('/_agent-native/secrets')).body.secrets).toEqual([
      expect.objectContaining({ scope: 'personal', name: 'API_TOKEN' }),
    ])
    const put = await c.put(
      `${R}/personal/environments/deploy.md`,
      '---\nsecrets: [API_TOKEN]\n---\nDeploys.\n',
    )
    expect(put.status).toBe(201)

    fake.reply(
      toolUse('run_command', {
        environment: 'deploy',
        // The model never knows the value: it checks a hash of it, and echoes the variable.
        command: `[ "$(printf %s "$API_TOKEN" | sha256sum | cut -c1-16)" = ${HASH} ] && echo injected; echo "token=$API_TOKEN" > out.txt; cat out.txt`,
      }),
      toolUse('read_file', { environment: 'deploy', path: 'out.txt' }),
      { text: 'Done.' },
    )
    const turn = await sendChat(c, { message: userText('check the token') })
    const [run] = toolParts(turn.reply, 'run_command')
    expect(run.output).toMatchObject({ ok: true, exitCode: 0, stdout: 'injected\ntoken=••••\n' })
    expect(toolParts(turn.reply, 'read_file')[0].output.content).toBe('token=••••')

    const thread = await c.get(`/_agent-native/agent/threads/${turn.threadId}`)
    const [env] = await queryRows<{ id: string }>(
      app.server.db.db,
      sql`select id from environments where name = 'deploy'`,
    )
    const audit = await c.get(`/_agent-native/environments/${env!.id}/audit`)
    expect(audit.status).toBe(200)
    // Newest first: the file the command wrote (kind change), then the command itself.
    expect(audit.body.entries.slice(0, 2)).toMatchObject([
      { kind: 'change', subject: 'out.txt', rule: 'create' },
      { kind: 'command', decision: 'allowed', exitCode: 0 },
    ])
    for (const text of [
      JSON.stringify(thread.body),
      JSON.stringify(audit.body),
      JSON.stringify(fake.requests.map((r) => r.body)),
    ]) {
      expect(text).not.toContain(SECRET_VALUE)
    }
    // Another org member cannot read this personal environment's audit.
    expect((await team.admin.client.get(`/_agent-native/environments/${env!.id}/audit`)).status).toBe(404)
  })
})

describe('commands the policy marks ask', () => {
  const ASKY = '---\npolicy:\n  commands:\n    ask: ["date *"]\n---\nAsks before date.\n'

  it('stop at an approval card in chat, and run once approved', async () => {
    const c = team.member.client
    expect((await c.put(`${R}/personal/environments/asky.md`, ASKY)).status).toBe(201)
    fake.reply(toolUse('run_command', { environment: 'asky', command: 'date +%Y' }))
    const asked = await sendChat(c, { message: userText('what year is it?') })
    const [pending] = toolParts(asked.reply, 'run_command')
    expect(pending.state).toBe('approval-requested')
    expect(fake.requests).toHaveLength(1)

    fake.reply({ text: 'It ran.' })
    const approved = await sendChat(c, {
      threadId: asked.threadId,
      message: {
        ...asked.reply,
        parts: [
          { ...pending, state: 'approval-responded', approval: { ...pending.approval, approved: true } },
        ],
      },
    })
    expect(toolParts(approved.reply, 'run_command')[0].output).toMatchObject({
      ok: true,
      exitCode: 0,
      decision: 'approved',
    })
    expect(toolParts(approved.reply, 'run_command')[0].output.stdout).toMatch(/^\d{4}\n$/)
  })

  it('are denied in an unattended run, with the reason in the transcript', async () => {
    const c = team.creator.client
    expect((await c.put(`${R}/personal/environments/asky.md`, ASKY)).status).toBe(201)
    const job = await c.post('/_agent-native/jobs', {
      name: 'yearly',
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'Print the year.',
      environment: 'asky', // the job field: its runs work there by default
    })
    expect(job.status).toBe(201)
    expect(job.body.job.environment).toBe('asky')
    fake.reply(toolUse('run_command', { command: 'date +%Y' }), { text: 'Could not.' })
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    const run = await waitForRun(c, started.body.run.id)
    const transcript = JSON.stringify(run.transcript)
    expect(transcript).toContain('an unattended run cannot ask, so it was denied')
    expect(transcript).toContain('ask: date *')
    const [audit] = await queryRows<{ decision: string; run_id: string }>(
      app.server.db.db,
      sql`select decision, run_id from environment_audit where subject = 'date +%Y' and run_id is not null`,
    )
    expect(audit).toEqual({ decision: 'denied', run_id: started.body.run.id })
  })
})

describe('an invalid environment definition', () => {
  // `podman` is no provider: line 2 names the field.
  const INVALID = '---\nprovider: podman\n---\nA box.\n'
  const refusal = { status: 400, field: 'provider', message: expect.stringMatching(/^Line 2: provider: /) }
  const stored = async (c: ApiClient, path: string) => (await c.get(`${R}/personal/${path}`)).status

  it('is refused by the resources API, storing nothing', async () => {
    const c = team.member.client
    const put = await c.put(`${R}/personal/environments/via-api.md`, INVALID)
    expect(put.status).toBe(400)
    expect(put.body.error).toMatchObject({ field: refusal.field, message: refusal.message })
    expect(await stored(c, 'environments/via-api.md')).toBe(404)
  })

  it('is refused by the workspace page’s save, and its as-you-type check agrees', async () => {
    const c = team.member.client
    const url = `${app.baseUrl}/workspace`
    const caller = await requirePageCaller(new Request(url, { headers: { cookie: c.cookieHeader } }))
    const post = (fields: Record<string, string>) =>
      handleWorkspaceAction(caller, new Request(url, { method: 'POST', body: new URLSearchParams(fields) }))
    const file = { scope: 'personal', path: 'environments/via-page.md', content: INVALID }
    expect(await post({ intent: 'save', ...file })).toMatchObject({ ok: false, error: refusal })
    expect(await post({ intent: 'validate', token: 't1', ...file })).toMatchObject({
      ok: true,
      data: { token: 't1', valid: false, field: 'provider' },
    })
    expect(await stored(c, 'environments/via-page.md')).toBe(404)
  })

  it("is refused to the agent's workspace tool in chat, which is told the field", async () => {
    const c = team.member.client
    const write = { action: 'write', path: 'environments/via-chat.md', content: INVALID }
    fake.reply(toolUse('workspace', write), { text: 'It was refused.' })
    const turn = await sendChat(c, { message: userText('Make me an environment') })
    expect(toolParts(turn.reply, 'workspace')[0].output).toMatchObject({ ok: false, error: refusal })
    expect(await stored(c, 'environments/via-chat.md')).toBe(404)
  })

  it("is refused to the agent's workspace tool in a job run", async () => {
    const c = team.member.client
    const job = await c.post('/_agent-native/jobs', {
      name: 'make-box',
      schedule: '0 7 * * 1-5',
      instructions: 'Define the box environment.',
    })
    expect(job.status).toBe(201)
    const write = { action: 'write', path: 'environments/via-run.md', content: INVALID }
    fake.reply(toolUse('workspace', write), { text: 'It was refused.' })
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    const run = await waitForRun(c, started.body.run.id)
    expect(JSON.stringify(run.transcript)).toContain('Line 2: provider: ')
    expect(await stored(c, 'environments/via-run.md')).toBe(404)
  })

  it('leaves a valid definition and other files alone', async () => {
    const c = team.member.client
    expect((await c.put(`${R}/personal/environments/fine.md`, '---\nprovider: local\n---\n')).status).toBe(
      201,
    )
    expect((await c.put(`${R}/personal/notes/podman.md`, INVALID)).status).toBe(201)
  })
})
