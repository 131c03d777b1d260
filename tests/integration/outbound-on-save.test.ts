/**
 * An integration's address is checked when it is saved (issue 26 item 7, decision 0252), not first
 * at "Test connection" or at delivery: a loopback, private or metadata address that the outbound
 * rule would refuse is a 400 on `url` with the words the later refusal uses, and nothing is stored.
 * Hosts an admin named in INTEGRATIONS_ALLOW_HOSTS stay reachable for the organisation's own
 * registrations (that is how the tests' loopback receivers are reached), and a name that does
 * not resolve is not refused: the rule applies again on every request.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { startTestMcpServer, type TestMcpServer } from '#tests/support/mcp-server.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

const M = '/_agent-native/mcp-servers'
const W = '/_agent-native/webhooks'

let agent: AgentApp
let mcp: TestMcpServer
let receiver: WebhookReceiver

beforeAll(async () => {
  mcp = await startTestMcpServer()
  receiver = await startWebhookReceiver()
  agent = await startAgentApp({
    key: 'sk-ant-deployment-outbound-save',
    env: { INTEGRATIONS_ALLOW_HOSTS: `127.0.0.1:${mcp.port}, ${receiver.hostPort}` },
  })
}, 240_000)
afterAll(async () => {
  await agent?.close()
  await mcp?.close()
  await receiver?.close()
})

describe('MCP servers', () => {
  it('refuses a personal server on loopback when it is added, in the words Test connection uses', async () => {
    const { team } = agent
    // The same server saved before this check existed: Test connection refuses it.
    await agent.app.server.db.db.execute(
      sql`insert into mcp_servers (id, org_id, scope, created_by, updated_by, name, url)
          values ('mcp_legacy', ${team.orgId}, 'personal', ${team.member.id}, ${team.member.id}, 'legacy', ${mcp.url})`,
    )
    const check = await team.member.client.post(`${M}/mcp_legacy/check`)
    expect(check.body.status.state).toBe('error')
    const testMessage: string = check.body.status.message
    expect(testMessage).toMatch(/^MCP server legacy refused by the outbound rule: .*127\.0\.0\.1/)
    await team.member.client.delete(`${M}/mcp_legacy`)

    const before = await snapshotTables()
    const res = await team.member.client.post(M, { name: 'legacy', url: mcp.url })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('url')
    expect(res.body.error.message).toBe(`url: ${testMessage}`)
    expect(await snapshotTables()).toEqual(before)
  })

  it('refuses private, link-local and localhost addresses for org servers not named by an admin', async () => {
    for (const url of ['http://10.0.0.1/mcp', 'http://169.254.169.254/latest', 'http://localhost:9/mcp']) {
      const res = await agent.team.admin.client.post(M, { name: 'inside', url, scope: 'org' })
      expect(res.status, url).toBe(400)
      expect(res.body.error.field, url).toBe('url')
      expect(res.body.error.message, url).toMatch(/^url: MCP server inside refused by the outbound rule: /)
    }
    expect((await agent.team.admin.client.get(M)).body.servers.map((s: { name: string }) => s.name)).toEqual(
      [],
    )
  })

  it('accepts an org server on a host the admin named, and refuses a PATCH that moves a server inside', async () => {
    const org = await agent.team.admin.client.post(M, { name: 'docs', url: mcp.url, scope: 'org' })
    expect(org.status, JSON.stringify(org.body)).toBe(201)

    const outside = await agent.team.member.client.post(M, { name: 'far', url: 'https://mcp.invalid/mcp' })
    expect(outside.status, JSON.stringify(outside.body)).toBe(201)
    const moved = await agent.team.member.client.patch(`${M}/${outside.body.server.id}`, {
      url: 'http://127.0.0.1:9/mcp',
    })
    expect(moved.status).toBe(400)
    expect(moved.body.error).toMatchObject({ field: 'url' })
    expect(moved.body.error.message).toMatch(/^url: MCP server far refused by the outbound rule: /)
    const after = (await agent.team.member.client.get(M)).body.servers
    expect(after.find((s: { name: string }) => s.name === 'far').url).toBe('https://mcp.invalid/mcp')
  })
})

describe('webhook and Slack endpoints', () => {
  it('refuses loopback, private and metadata addresses when they are added', async () => {
    const before = await snapshotTables()
    const cases: [string, string][] = [
      ['webhook', 'http://127.0.0.1:9/hook'],
      ['webhook', 'http://192.168.1.20/hook'],
      ['slack', 'http://169.254.169.254/latest/meta-data'],
      ['webhook', 'http://[::1]:9/hook'],
      // Loopback in the spellings a resolver accepts, and the IPv6 forms that carry it.
      ['webhook', 'http://2130706433:9/hook'],
      ['webhook', 'http://0177.0.0.1:9/hook'],
      ['webhook', 'http://0x7f.1:9/hook'],
      ['webhook', 'http://127.1:9/hook'],
      ['webhook', 'http://0:9/hook'],
      ['webhook', 'http://[::ffff:127.0.0.1]:9/hook'],
      ['webhook', 'http://[0:0:0:0:0:ffff:7f00:1]:9/hook'],
      ['webhook', 'http://[64:ff9b::7f00:1]:9/hook'],
    ]
    for (const [kind, url] of cases) {
      const res = await agent.team.admin.client.post(W, { kind, name: 'inside', url })
      expect(res.status, url).toBe(400)
      expect(res.body.error.field, url).toBe('url')
      expect(res.body.error.message, url).toMatch(
        new RegExp(`^url: ${kind} inside refused by the outbound rule: .*(not public|private)`),
      )
    }
    expect(await snapshotTables()).toEqual(before)
  })

  it('refuses a URL that carries a user name or password, naming the field', async () => {
    const before = await snapshotTables()
    const res = await agent.team.admin.client.post(W, {
      kind: 'webhook',
      name: 'creds',
      url: `http://user:pw@${new URL(receiver.origin).host}/hook`,
    })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('url')
    expect(await snapshotTables()).toEqual(before)
  })

  it('does not say what an inside name resolved to: anyone who signs up could map the inside with it', async () => {
    const res = await agent.team.admin.client.post(W, {
      kind: 'webhook',
      name: 'mapper',
      url: 'http://localhost:9/hook',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      "url: webhook mapper refused by the outbound rule: localhost resolves to an address that is not public (private, loopback, reserved or this server's own)",
    )
    expect(res.body.error.message).not.toMatch(/127\.0\.0\.1|::1/)
  })

  it('accepts the receiver an admin named, and a name that does not resolve yet', async () => {
    const named = await agent.team.admin.client.post(W, {
      kind: 'webhook',
      name: 'receiver',
      url: `${receiver.origin}/hook`,
    })
    expect(named.status, JSON.stringify(named.body)).toBe(201)
    const later = await agent.team.admin.client.post(W, {
      kind: 'webhook',
      name: 'later',
      url: 'https://hooks.invalid/x',
    })
    expect(later.status, JSON.stringify(later.body)).toBe(201)
  })
})
