/**
 * Attacks on Clockwork's MCP server and personal access tokens from an outside review, each the
 * request a member (or whoever holds their token or a stolen session) makes, against a real app
 * on real PostgreSQL. Each failed before its fix (decision 0416).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeam, type Team, type TeamPerson } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const TOKENS = '/_agent-native/access-tokens'
const ORG = '/_agent-native/auth/organization'

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp({ env: { MCP_RATE_LIMIT_PER_MINUTE: '1000' } })
  team = await createTeam(app)
})
afterAll(() => app?.close())

async function makeToken(person: TeamPerson, scopes: string[]): Promise<string> {
  const res = await person.client.post(TOKENS, { name: `token ${scopes.join(' ')}`, scopes })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return (res.body as { token: string }).token
}

async function mcp(token: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${app.baseUrl}/_agent-native/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${token}`,
    },
    body,
  })
  return { status: res.status, text: await res.text() }
}

const listJobs = (token: string) =>
  mcp(
    token,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_jobs', arguments: {} },
    }),
  )

describe('bad messages', () => {
  it('an id nested 100,000 deep on a call outside the token’s scopes is a 400, not a 500', async () => {
    const token = await makeToken(team.member, ['jobs:read'])
    const depth = 100_000
    const body = `{"jsonrpc":"2.0","id":${'['.repeat(depth)}${']'.repeat(depth)},"method":"tools/call","params":{"name":"create_job","arguments":{}}}`
    const answer = await mcp(token, body)
    expect(answer.status).toBe(400)
    expect((await mcp(token, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }))).status).toBe(200)
  })

  it('a message that is not JSON-RPC is refused, not answered as a tool result', async () => {
    const token = await makeToken(team.member, ['jobs:read'])
    const answer = await mcp(
      token,
      JSON.stringify({ id: { any: 'thing' }, method: 'tools/call', params: { name: 'run_job' } }),
    )
    expect(answer.status).toBe(400)
    expect(answer.text).not.toContain('"result"')
  })

  it.each(['{not json', ''])('the body %j is a 400 parse error', async (body) => {
    const token = await makeToken(team.member, ['jobs:read'])
    const answer = await mcp(token, body)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.text).error.code).toBe(-32700)
  })
})

describe('a job asked for by name', () => {
  it('is looked up by its name, not searched for: a long name is not found, not refused as `q`', async () => {
    const token = await makeToken(team.member, ['jobs:read'])
    const name = 'x'.repeat(300)
    const answer = await mcp(
      token,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_job', arguments: { name } },
      }),
    )
    expect(answer.status).toBe(200)
    const text = (JSON.parse(answer.text) as { result: { content: { text: string }[] } }).result.content[0]!
      .text
    expect(text).not.toMatch(/\bq\b/)
    expect(text).toMatch(/name|No job named/)
  })
})

describe('a token does not outlive the remedy', () => {
  it.each(['is removed', 'leaves'])('of a member who %s, even after they are invited back', async (how) => {
    const t = await createTeam(app)
    const token = await makeToken(t.member, ['jobs:read', 'jobs:write'])
    expect((await listJobs(token)).status).toBe(200)
    const gone =
      how === 'leaves'
        ? await t.member.client.post(`${ORG}/leave`, { organizationId: t.orgId })
        : await t.owner.client.post(`${ORG}/remove-member`, {
            memberIdOrEmail: t.member.email,
            organizationId: t.orgId,
          })
    expect(gone.status, JSON.stringify(gone.body)).toBe(200)
    const invite = await t.owner.client.post(`${ORG}/invite-member`, {
      email: t.member.email,
      role: 'member',
      organizationId: t.orgId,
    })
    expect(invite.status, JSON.stringify(invite.body)).toBe(200)
    const accept = await t.member.client.post(`${ORG}/accept-invitation`, { invitationId: invite.body.id })
    expect(accept.status, JSON.stringify(accept.body)).toBe(200)
    expect((await listJobs(token)).status).toBe(401)
  })

  it('made with a stolen session, once the person changes their password and signs out every other session', async () => {
    const t = await createTeam(app)
    const thief = app.client()
    await thief.signIn(t.member.email)
    const made = await thief.post(TOKENS, { name: 'not mine', scopes: ['jobs:read', 'jobs:write'] })
    expect(made.status).toBe(201)
    const token = (made.body as { token: string }).token
    expect((await listJobs(token)).status).toBe(200)
    const changed = await t.member.client.post('/_agent-native/auth/change-password', {
      currentPassword: 'password1234',
      newPassword: 'another-password-5678',
      revokeOtherSessions: true,
    })
    expect(changed.status).toBe(200)
    expect((await thief.get(TOKENS)).status).toBe(401)
    expect((await listJobs(token)).status).toBe(401)
  })

  it('when an admin makes a reset link for the person, and when the link is used', async () => {
    const t = await createTeam(app)
    const before = await makeToken(t.member, ['jobs:read'])
    const made = await t.owner.client.post(`/_agent-native/members/${t.member.id}/reset-link`)
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect((await listJobs(before)).status).toBe(401)
    // Whoever holds the link made a token before choosing the new password.
    const after = await makeToken(t.member, ['jobs:read'])
    const reset = await app.client().post('/_agent-native/auth/reset-password', {
      token: new URL(made.body.link).searchParams.get('token'),
      newPassword: 'chosen-after-the-link-1234',
    })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)
    expect((await listJobs(after)).status).toBe(401)
  })

  it('but a password change that keeps the other sessions keeps the tokens', async () => {
    const t = await createTeam(app)
    const token = await makeToken(t.member, ['jobs:read'])
    const changed = await t.member.client.post('/_agent-native/auth/change-password', {
      currentPassword: 'password1234',
      newPassword: 'another-password-5678',
    })
    expect(changed.status).toBe(200)
    expect((await listJobs(token)).status).toBe(200)
  })
})
