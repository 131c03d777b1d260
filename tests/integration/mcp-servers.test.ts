/**
 * MCP servers end to end: registration over the API (validation, who may register and change
 * what), a real MCP server started here (the SDK's server side, streamable HTTP) whose tool the
 * fake model calls in chat and in a job run, with the result in the transcript; header secrets,
 * the job's `mcp` limit, and failures (refused, auth, unreachable, tool error) as clear messages.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { startTestMcpServer, type TestMcpServer } from '#tests/support/mcp-server.ts'
import { runNow } from '#tests/support/runs.ts'
import { freePort } from '#tests/support/postgres-server.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'

const M = '/_agent-native/mcp-servers'
const J = '/_agent-native/jobs'
const KEY = 'sk-ant-deployment-mcp-0016'
const TOKEN = 'docs-token-7f3a9'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic
let mcp: TestMcpServer
let deadPort: number
let docsId: string

beforeAll(async () => {
  mcp = await startTestMcpServer({ token: TOKEN })
  deadPort = await freePort()
  agent = await startAgentApp({
    key: KEY,
    // The test server lives on loopback: only admin-registered servers on these exact ports may reach it.
    env: { INTEGRATIONS_ALLOW_HOSTS: `127.0.0.1:${mcp.port}, 127.0.0.1:${deadPort}` },
    scheduler: true,
  })
  ;({ team, fake } = agent)
}, 240_000)
afterAll(async () => {
  await agent?.close()
  await mcp?.close()
})
beforeEach(() => {
  fake.requests.length = 0
})

const toolNames = (i: number) => (fake.requests[i]?.body.tools ?? []).map((t: { name: string }) => t.name)

describe('registering MCP servers', () => {
  it('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const c = team.member.client
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Docs!', url: mcp.url }, 'name'],
      [{ url: mcp.url }, 'name'],
      [{ name: 'docs', url: 'ftp://example.com/mcp' }, 'url'],
      [{ name: 'docs', url: 'https://user:pw@example.com/mcp' }, 'url'],
      [{ name: 'docs', url: 'not a url' }, 'url'],
      [{ name: 'docs', url: 'https://example.com/mcp', headers: { Host: 'x' } }, 'headers'],
      [
        { name: 'docs', url: 'https://example.com/mcp', headers: { Authorization: { bearer: 'lower' } } },
        'headers',
      ],
      [{ name: 'docs', url: 'https://example.com/mcp', headers: { 'X-A': 'line\nbreak' } }, 'headers'],
      [{ name: 'docs', url: 'https://example.com/mcp', headers: [] }, 'headers'],
      [{ name: 'docs', url: 'https://example.com/mcp', scope: 'team' }, 'scope'],
      [{ name: 'docs', url: 'https://example.com/mcp', extra: 1 }, 'extra'],
    ]
    for (const [body, field] of cases) {
      const res = await c.post(M, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.field ?? res.body.error.message, JSON.stringify(body)).toContain(field)
    }
    expect((await c.get(M)).body.servers).toEqual([])
  })

  it('lets only admins and owners register for the org', async () => {
    const res = await team.member.client.post(M, { name: 'docs', url: mcp.url, scope: 'org' })
    expect(res.status).toBe(403)
    expect((await team.member.client.get(M)).body.servers).toEqual([])
  })

  it('registers an org server with a bearer secret; members see it without its headers', async () => {
    const res = await team.admin.client.post(M, {
      name: 'docs',
      url: mcp.url,
      scope: 'org',
      headers: { Authorization: { bearer: 'DOCS_TOKEN' } },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    docsId = res.body.server.id
    expect(res.body.server).toMatchObject({
      name: 'docs',
      scope: 'org',
      canEdit: true,
      headers: { Authorization: { bearer: 'DOCS_TOKEN' } },
      status: { state: 'unknown' },
    })
    const seen = (await team.member.client.get(M)).body.servers
    expect(seen).toEqual([expect.objectContaining({ id: docsId, headers: null, canEdit: false })])
    // Names are tool prefixes: one per person's view.
    const again = await team.member.client.post(M, { name: 'docs', url: 'https://example.com/mcp' })
    expect(again.status).toBe(409)
    expect(again.body.error.field).toBe('name')
  })

  it('lets nobody but admins change or remove an org server', async () => {
    expect((await team.member.client.patch(`${M}/${docsId}`, { url: 'https://example.com/x' })).status).toBe(
      403,
    )
    expect((await team.member.client.delete(`${M}/${docsId}`)).status).toBe(403)
    expect((await team.outsider.client.patch(`${M}/${docsId}`, { name: 'x' })).status).toBe(404)
    expect((await team.outsider.client.delete(`${M}/${docsId}`)).status).toBe(404)
    const bad = await team.admin.client.patch(`${M}/${docsId}`, { url: 'gopher://x' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('url')
    const unknownKey = await team.admin.client.patch(`${M}/${docsId}`, { scope: 'personal' })
    expect(unknownKey.status).toBe(400)
    const [server] = (await team.admin.client.get(M)).body.servers
    expect(server).toMatchObject({ url: mcp.url, scope: 'org' })
  })

  it('tests the connection: a missing secret, then the tools once the secret is stored', async () => {
    const missing = await team.member.client.post(`${M}/${docsId}/check`)
    expect(missing.status).toBe(200)
    expect(missing.body.status).toMatchObject({
      state: 'error',
      message: expect.stringContaining('DOCS_TOKEN'),
    })

    const saved = await team.admin.client.put(
      '/_agent-native/secrets/org/DOCS_TOKEN',
      JSON.stringify({ value: TOKEN }),
      {
        'content-type': 'application/json',
      },
    )
    expect(saved.status).toBe(200)
    const ok = await team.member.client.post(`${M}/${docsId}/check`)
    expect(ok.body.status).toMatchObject({ state: 'ok', tools: 2 })
    const [listed] = (await team.member.client.get(M)).body.servers
    expect(listed.status).toMatchObject({ state: 'ok', tools: 2 })
  })
})

describe('MCP tools in chat and runs', () => {
  it('the model calls the server’s tool in chat; the result is in the stored transcript', async () => {
    const before = mcp.calls.length
    fake.replyWhen('handbook-chat', toolUse('docs__lookup_docs', { query: 'deploys' }), {
      text: 'Deploys are on Tuesdays.',
    })
    const turn = await sendChat(team.member.client, {
      message: userText('handbook-chat: when do we deploy?'),
    })
    expect(turn.status).toBe(200)
    const tool = fake.requests[0]!.body.tools.find((t: { name: string }) => t.name === 'docs__lookup_docs')
    expect(tool.description).toContain('Looks a topic up in the team handbook')
    expect(tool.input_schema.properties.query).toMatchObject({ type: 'string' })
    expect(toolNames(0)).toContain('docs__always_fails')

    const [part] = toolParts(turn.reply, 'docs__lookup_docs')
    expect(part).toMatchObject({
      state: 'output-available',
      input: { query: 'deploys' },
      output: {
        ok: true,
        server: 'docs',
        tool: 'lookup_docs',
        content: 'Handbook on deploys: deploys happen on Tuesdays.',
      },
    })
    expect(mcp.calls.slice(before)).toEqual([
      { tool: 'lookup_docs', args: { query: 'deploys' }, authorization: `Bearer ${TOKEN}` },
    ])
    // The model saw the result on its next step, and the thread kept it.
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('deploys happen on Tuesdays')
    const thread = await team.member.client.get(`/_agent-native/agent/threads/${turn.threadId}`)
    expect(JSON.stringify(thread.body)).toContain('deploys happen on Tuesdays')
    // The secret never reaches the browser.
    expect(turn.raw).not.toContain(TOKEN)
  })

  it('a tool-level error comes back to the model as a readable failure', async () => {
    fake.replyWhen('handbook-fail', toolUse('docs__always_fails', {}), { text: 'It failed.' })
    const turn = await sendChat(team.member.client, { message: userText('handbook-fail') })
    const [part] = toolParts(turn.reply, 'docs__always_fails')
    expect(part.output).toEqual({
      ok: false,
      error: { status: 422, code: 'mcp_tool_error', message: 'the handbook is being reindexed' },
    })
  })

  it('a job run calls the tool; the job’s mcp list limits which servers it gets', async () => {
    const created = await team.creator.client.post(J, {
      name: 'handbook-digest',
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'handbook-run: summarise the deploy rules',
      mcp: ['docs'],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.job.mcp).toEqual(['docs'])
    fake.replyWhen('handbook-run', toolUse('docs__lookup_docs', { query: 'deploy rules' }), {
      text: 'Deploys: Tuesdays.',
    })
    const { run, transcript } = await runNow(team.creator.client, created.body.job.id)
    expect(run.status).toBe('success')
    const parts = transcript[1].parts
    expect(parts).toContainEqual(
      expect.objectContaining({
        type: 'tool-docs__lookup_docs',
        state: 'output-available',
        output: expect.objectContaining({
          ok: true,
          content: 'Handbook on deploy rules: deploys happen on Tuesdays.',
        }),
      }),
    )

    const none = await team.creator.client.post(J, {
      name: 'no-mcp',
      schedule: '0 7 * * 1-5',
      instructions: 'no-mcp-run: just answer',
      mcp: [],
    })
    fake.replyWhen('no-mcp-run', { text: 'ok' })
    fake.requests.length = 0
    await runNow(team.creator.client, none.body.job.id)
    expect(toolNames(0).some((n: string) => n.startsWith('docs__'))).toBe(false)
    expect(toolNames(0)).toContain('clock')
  })

  it('refuses a bad mcp list on a job with a 400 naming the field', async () => {
    for (const mcpValue of ['docs', ['Docs'], ['docs', 'docs'], [1]]) {
      const res = await team.creator.client.post(J, {
        name: 'bad-mcp',
        schedule: '@daily',
        instructions: 'x',
        mcp: mcpValue,
      })
      expect(res.status, JSON.stringify(mcpValue)).toBe(400)
      expect(res.body.error.field ?? '').toMatch(/^mcp/)
    }
  })
})

describe('failures are clear, never crashes', () => {
  async function checkOf(client: TestApp extends never ? never : Team['member']['client'], body: object) {
    const res = await client.post(M, body)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const check = await client.post(`${M}/${res.body.server.id}/check`)
    await client.delete(`${M}/${res.body.server.id}`)
    return check.body.status
  }

  // Refused when added (tests/integration/outbound-on-save.test.ts has the rest).
  it('a personal server on loopback is refused: INTEGRATIONS_ALLOW_HOSTS widens admin registrations only', async () => {
    const res = await team.member.client.post(M, { name: 'mine', url: mcp.url })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({
      field: 'url',
      message: expect.stringMatching(/refused.*127\.0\.0\.1/),
    })
  })

  it('an org server on an internal host not named in INTEGRATIONS_ALLOW_HOSTS is refused', async () => {
    const res = await team.admin.client.post(M, { name: 'other', url: 'http://10.0.0.1/mcp', scope: 'org' })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'url', message: expect.stringContaining('refused') })
  })

  it('wrong credentials are reported as such', async () => {
    const status = await checkOf(team.admin.client, {
      name: 'wrong',
      url: mcp.url,
      scope: 'org',
      headers: { Authorization: 'Bearer nope-nope' },
    })
    expect(status).toMatchObject({
      state: 'error',
      message: expect.stringMatching(/rejected the credentials/),
    })
  })

  it('an unreachable server is reported as unreachable', async () => {
    const status = await checkOf(team.admin.client, {
      name: 'gone',
      url: `http://127.0.0.1:${deadPort}/mcp`,
      scope: 'org',
    })
    expect(status).toMatchObject({ state: 'error', message: expect.stringMatching(/unreachable/) })
  })

  it('chat goes on when a server is down, and the system prompt says which', async () => {
    const res = await team.admin.client.post(M, {
      name: 'flaky',
      url: `http://127.0.0.1:${deadPort}/mcp`,
      scope: 'org',
    })
    fake.replyWhen('flaky-chat', { text: 'Fine.' })
    const turn = await sendChat(team.member.client, { message: userText('flaky-chat') })
    expect(turn.status).toBe(200)
    expect(
      fake.requests[0]!.body.system.map?.((s: { text: string }) => s.text).join('') ??
        fake.requests[0]!.body.system,
    ).toContain('MCP server flaky is unreachable')
    expect(toolNames(0)).toContain('docs__lookup_docs')
    await team.admin.client.delete(`${M}/${res.body.server.id}`)
  })
})
