/**
 * Open sign-up makes every member a potential attacker, and four collections a member grows had
 * no bound: secrets, MCP servers, webhook endpoints and calendar tokens. Each is read whole by a
 * page or by every run, so a script that creates without end fills the database and slows everyone.
 * Now each is capped per scope (decision 0456): past the cap the create is refused and writes
 * nothing, and creates racing for the last place take turns so exactly one gets it.
 *
 * To stay fast, each collection is filled to one short of its cap directly in the database; only
 * the last places are asked for over HTTP.
 */
import { randomBytes } from 'node:crypto'
import { sql, type SQL } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calendarTokens, mcpServers, notificationEndpoints, secrets } from '#server/db/schema/index.ts'
import { queryRows } from '#server/db/sql.ts'
import { encryptSecret } from '#server/keys/crypto.ts'
import { newId } from '#server/lib/ids.ts'
import type { ApiResponse } from '#tests/support/api-client.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
})
afterAll(() => app?.close())

const db = () => app.server.db.db
const URL_OUT = 'https://1.1.1.1/hook'

/** One capped collection, as the attacker meets it. The caps are written out: the attack does not read the code. */
type Cap = {
  what: string
  cap: number
  table: string
  /** Where this scope's rows are, to count and compare them. */
  where: () => SQL
  /** Inserts `n` rows straight into the table. */
  fill: (n: number) => Promise<void>
  /** The `i`th create over HTTP (distinct `i`, distinct names). */
  create: (i: number) => Promise<ApiResponse>
  created: number
  refused: { status: number; code: string; message: RegExp }
}

const rowsOf = (c: Cap) =>
  queryRows(db(), sql`select * from ${sql.identifier(c.table)} where ${c.where()} order by id`)

const quota = (message: RegExp) => ({ status: 403, code: 'quota_exceeded', message })

async function fillSecrets(n: number, owner: { userId: string | null; orgId: string | null }) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId('sec'),
    ...owner,
    name: `BULK_${i}`,
    secret: encryptSecret('x'),
  }))
  await db().insert(secrets).values(rows)
}

const caps: Cap[] = [
  {
    what: "a member's personal secrets",
    cap: 100,
    table: 'secrets',
    where: () => sql`user_id = ${team.member.id} and org_id is null`,
    fill: (n) => fillSecrets(n, { userId: team.member.id, orgId: null }),
    create: (i) =>
      team.member.client.request('PUT', `/_agent-native/secrets/personal/NEW_${i}`, { value: 'v4lue' }),
    created: 200,
    refused: quota(/already have 100 personal secrets/),
  },
  {
    what: "the organisation's shared secrets",
    cap: 100,
    table: 'secrets',
    where: () => sql`org_id = ${team.orgId} and user_id is null`,
    fill: (n) => fillSecrets(n, { userId: null, orgId: team.orgId }),
    create: (i) =>
      team.admin.client.request('PUT', `/_agent-native/secrets/org/NEW_${i}`, { value: 'v4lue' }),
    created: 200,
    refused: quota(/organisation already has 100 shared secrets/),
  },
  {
    what: "a member's personal MCP servers",
    cap: 20,
    table: 'mcp_servers',
    where: () => sql`org_id = ${team.orgId} and scope = 'personal' and created_by = ${team.member.id}`,
    fill: (n) => fillMcp(n, 'personal', team.member.id),
    create: (i) => team.member.client.post('/_agent-native/mcp-servers', { name: `new-${i}`, url: URL_OUT }),
    created: 201,
    refused: quota(/already have 20 personal MCP servers/),
  },
  {
    what: "the organisation's shared MCP servers",
    cap: 20,
    table: 'mcp_servers',
    where: () => sql`org_id = ${team.orgId} and scope = 'org'`,
    fill: (n) => fillMcp(n, 'org', team.admin.id),
    create: (i) =>
      team.admin.client.post('/_agent-native/mcp-servers', { name: `new-${i}`, url: URL_OUT, scope: 'org' }),
    created: 201,
    refused: quota(/organisation already has 20 shared MCP servers/),
  },
  {
    what: "the organisation's webhook endpoints",
    cap: 100,
    table: 'notification_endpoints',
    where: () => sql`org_id = ${team.orgId}`,
    fill: async (n) => {
      const rows = Array.from({ length: n }, (_, i) => ({
        id: newId('end'),
        orgId: team.orgId,
        kind: 'webhook' as const,
        name: `bulk-${i}`,
        url: encryptSecret(URL_OUT),
        host: '1.1.1.1',
        createdBy: team.admin.id,
        createdAt: new Date(),
      }))
      await db().insert(notificationEndpoints).values(rows)
    },
    create: (i) =>
      team.admin.client.post('/_agent-native/webhooks', { kind: 'webhook', name: `new-${i}`, url: URL_OUT }),
    created: 201,
    refused: quota(/organisation already has 100 endpoints/),
  },
  {
    what: "a member's calendar tokens",
    cap: 20,
    table: 'calendar_tokens',
    where: () => sql`user_id = ${team.member.id} and org_id = ${team.orgId}`,
    fill: async (n) => {
      const rows = Array.from({ length: n }, () => ({
        id: newId('ctok'),
        userId: team.member.id,
        orgId: team.orgId,
        tokenHash: randomBytes(32).toString('hex'),
      }))
      await db().insert(calendarTokens).values(rows)
    },
    create: () => team.member.client.post('/_agent-native/calendar/tokens'),
    created: 201,
    // A 409, as the neighbouring machine and access tokens answer past their ceilings.
    refused: { status: 409, code: 'conflict', message: /20 live calendar tokens here.*revoke one/ },
  },
]

async function fillMcp(n: number, scope: 'personal' | 'org', by: string) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId('mcp'),
    orgId: team.orgId,
    scope,
    createdBy: by,
    updatedBy: by,
    name: `bulk-${i}`,
    url: URL_OUT,
  }))
  await db().insert(mcpServers).values(rows)
}

describe.each(caps)('$what', (c) => {
  it(`takes up to ${c.cap}, refuses the next with ${c.refused.status} naming the cap, writing nothing`, async () => {
    await c.fill(c.cap - 1)
    const last = await c.create(1000)
    expect(last.status, JSON.stringify(last.body)).toBe(c.created)

    const before = await rowsOf(c)
    expect(before).toHaveLength(c.cap)
    const refused = await c.create(1001)
    expect(refused.status, JSON.stringify(refused.body)).toBe(c.refused.status)
    expect(refused.body.error).toMatchObject({
      code: c.refused.code,
      message: expect.stringMatching(c.refused.message),
    })
    expect(await rowsOf(c)).toEqual(before)
  })

  it('lets exactly one of eight creates at once take the one free place', async () => {
    const [oldest] = (await rowsOf(c)) as { id: string }[]
    await db().execute(sql`delete from ${sql.identifier(c.table)} where id = ${oldest!.id}`)
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => c.create(2000 + i)))
    const outcomes = answers.map((a) =>
      a.status === c.created ? 'created' : `${a.status} ${a.body.error?.code}`,
    )
    const refusal = `${c.refused.status} ${c.refused.code}`
    expect(outcomes.sort()).toEqual(['created', ...Array(7).fill(refusal)].sort())
    expect(await rowsOf(c)).toHaveLength(c.cap)
  })
})

describe('what the caps leave alone', () => {
  it("replacing a stored secret's value when the scope is full", async () => {
    const [stored] = (await rowsOf(caps[0]!)) as { name: string }[]
    const res = await team.member.client.request('PUT', `/_agent-native/secrets/personal/${stored!.name}`, {
      value: 'n3w-value',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it("another organisation's collections, counted apart", async () => {
    const outsider = team.outsider.client
    expect(
      (await outsider.request('PUT', '/_agent-native/secrets/org/MINE', { value: 'v4lue' })).status,
    ).toBe(200)
    expect((await outsider.post('/_agent-native/mcp-servers', { name: 'mine', url: URL_OUT })).status).toBe(
      201,
    )
    const hook = await outsider.post('/_agent-native/webhooks', {
      kind: 'webhook',
      name: 'mine',
      url: URL_OUT,
    })
    expect(hook.status).toBe(201)
    expect((await outsider.post('/_agent-native/calendar/tokens')).status).toBe(201)
  })
})
