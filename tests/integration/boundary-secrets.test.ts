/**
 * Organisation secrets go only where an admin put them (issue 25, item 3), tried the way a member
 * would: a personal environment or a personal MCP server naming an org secret, a shared
 * definition a member saved, a definition saved before the rule or by someone who has since lost
 * the admin role, and a viewer reading or searching the files of an environment that holds
 * secrets. Redaction is cosmetic: every check here looks for the base64 of the value too.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getDb } from '#server/db/client.ts'
import { mcpServers } from '#server/db/schema/mcp.ts'
import { member as members, resources } from '#server/db/schema/index.ts'
import { endpointOf } from '#server/integrations/mcp-service.ts'
import { encryptSecret } from '#server/keys/crypto.ts'
import { upsertSecret } from '#server/keys/secrets-store.ts'
import { newId } from '#server/lib/ids.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { callTool } from '#tests/support/agent-chat.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team, TeamPerson } from '#tests/support/team.ts'

const KEY = 'sk-ant-deployment-boundary-secrets'
const ORG_VALUE = 'org-deploy-token-93kq7ZX'
const B64 = Buffer.from(ORG_VALUE).toString('base64')
const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const M = '/_agent-native/mcp-servers'
const PRINT = 'printf %s "$ORG_TOKEN" | base64'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, environmentsDir: 'clockwork-boundary-secrets-' })
  ;({ team, fake } = agent)
  const saved = await team.admin.client.request('PUT', '/_agent-native/secrets/org/ORG_TOKEN', {
    value: ORG_VALUE,
  })
  expect(saved.status).toBe(200)
}, 240_000)
afterAll(() => agent?.close())
beforeEach(() => {
  fake.requests.length = 0
})

/** The person's agent calls `name` with `input` once; answers the tool's output. */
async function toolCall(who: TeamPerson, name: string, input: Record<string, unknown>) {
  const { turn, output } = await callTool(who.client, fake, name, input)
  expect(turn.status).toBe(200)
  expect(turn.raw).not.toContain(B64)
  expect(turn.raw).not.toContain(ORG_VALUE)
  return output
}

/** Stores a workspace file as it was before the rule (no check ran on it). */
async function plantFile(file: {
  scope: 'personal' | 'shared'
  path: string
  content: string
  writer: string
  creator?: string | null
}) {
  await getDb()
    .insert(resources)
    .values({
      id: newId('res'),
      orgId: team.orgId,
      scope: file.scope,
      ownerId: file.scope === 'personal' ? file.writer : null,
      path: file.path,
      content: file.content,
      updatedBy: file.writer,
      createdBy: file.creator === undefined ? file.writer : file.creator,
    })
}

const definition = (lines: string[]) => `---\n${lines.join('\n')}\n---\nDeploys.\n`

async function setRole(person: TeamPerson, role: 'admin' | 'member') {
  const [row] = await getDb()
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.userId, person.id), eq(members.organizationId, team.orgId)))
  const res = await team.owner.client.post('/_agent-native/auth/organization/update-member-role', {
    memberId: row!.id,
    role,
    organizationId: team.orgId,
  })
  expect(res.status).toBe(200)
}

describe("a member's personal definitions", () => {
  it('cannot name an organisation secret: refused at save with a 400 naming the field', async () => {
    const res = await team.member.client.put(
      `${R}/personal/environments/leak.md`,
      definition(['secrets: [ORG_TOKEN]', `setup: ['${PRINT}']`]),
    )
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'secrets.0' })
    expect(res.body.error.message).toMatch(/ORG_TOKEN is an organisation secret/)
    expect((await team.member.client.get(`${R}/personal/environments/leak.md`)).status).toBe(404)
  })

  it('get no organisation secret at use when saved before the rule: the command, setup and output never see it', async () => {
    await plantFile({
      scope: 'personal',
      path: 'environments/old-leak.md',
      content: definition(['secrets: [ORG_TOKEN]', `setup: ['${PRINT}']`]),
      writer: team.member.id,
    })
    const output = await toolCall(team.member, 'run_command', { environment: 'old-leak', command: PRINT })
    expect(output).toMatchObject({ ok: false, error: { status: 400, field: 'secrets' } })
    expect(output.error.message).toMatch(/ORG_TOKEN/)
    const box = await team.member.client.post(`${E}/old-leak/commands`, { command: PRINT })
    expect(box.status).toBe(400)
    expect(JSON.stringify(box.body)).not.toContain(B64)
    const bootstrap = await team.member.client.get(`${E}/old-leak/bootstrap`)
    expect(JSON.stringify(bootstrap.body)).not.toContain(B64)
  })

  it('still get their own secret of the same name, which wins', async () => {
    const mine = 'my-own-token-5521'
    const c = team.creator.client
    expect(
      (await c.request('PUT', '/_agent-native/secrets/personal/ORG_TOKEN', { value: mine })).status,
    ).toBe(200)
    expect(
      (await c.put(`${R}/personal/environments/own.md`, definition(['secrets: [ORG_TOKEN]']))).status,
    ).toBe(201)
    const run = await c.post(`${E}/own/commands`, { command: PRINT })
    expect(run.status).toBe(200)
    expect(run.body.result.stdout.trim()).toBe(Buffer.from(mine).toString('base64'))
  })

  it('a personal MCP server cannot send an organisation secret as a header, at save or at use', async () => {
    const res = await team.member.client.post(M, {
      name: 'mine',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: { bearer: 'ORG_TOKEN' } },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'headers.Authorization' })
    // Registered before the rule: the headers it would send never carry the organisation's value.
    const [planted] = await getDb()
      .insert(mcpServers)
      .values({
        id: newId('mcp'),
        orgId: team.orgId,
        scope: 'personal',
        createdBy: team.member.id,
        name: 'old-mine',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: { bearer: 'ORG_TOKEN' } },
      })
      .returning()
    await expect(endpointOf(planted!)).rejects.toMatchObject({ kind: 'config' })
  })
})

describe('shared definitions', () => {
  it('a member cannot give a shared environment secrets (400 naming the field)', async () => {
    const res = await team.member.client.put(
      `${R}/shared/environments/team-leak.md`,
      definition(['secrets: [ORG_TOKEN]', `setup: ['${PRINT}']`]),
    )
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'secrets.0' })
  })

  it('one a member saved before the rule gets no secret, for the member or for an admin who uses it', async () => {
    await plantFile({
      scope: 'shared',
      path: 'environments/planted.md',
      content: definition(['secrets: [ORG_TOKEN]']),
      writer: team.member.id,
    })
    const mine = await team.member.client.post(`${E}/planted/commands`, { command: PRINT })
    expect(mine.status).toBe(403)
    expect(mine.body.error.field).toBe('secrets')
    const admins = await team.admin.client.post(`${E}/planted/commands`, { command: PRINT })
    expect(admins.status).toBe(403)
    expect(admins.body.error.field).toBe('secrets')
    expect(JSON.stringify([mine.body, admins.body])).not.toContain(B64)
  })

  it('one an admin saved gets it, until that admin loses the role; an admin saving it again restores it', async () => {
    const saved = await team.admin.client.put(
      `${R}/shared/environments/deploy.md`,
      definition(['secrets: [ORG_TOKEN]']),
    )
    expect(saved.status).toBe(201)
    const ok = await team.admin.client.post(`${E}/deploy/commands`, {
      command: `test "$ORG_TOKEN" = '${ORG_VALUE}' && echo has-it`,
    })
    expect(ok.body.result?.stdout).toBe('has-it\n')

    await setRole(team.admin, 'member')
    try {
      // Still its creator, but no longer an admin: the definition it saved gets no secret.
      const demoted = await team.admin.client.post(`${E}/deploy/commands`, { command: PRINT })
      expect(demoted.status).toBe(403)
      expect(demoted.body.error.field).toBe('secrets')
      const owner = await team.owner.client.post(`${E}/deploy/commands`, { command: PRINT })
      expect(owner.status).toBe(403)
      // The owner saves it: now an admin stands behind it.
      const text = (await team.owner.client.get(`${R}/shared/environments/deploy.md`)).body.resource.content
      expect((await team.owner.client.put(`${R}/shared/environments/deploy.md`, `${text}\n`)).status).toBe(
        200,
      )
      const again = await team.owner.client.post(`${E}/deploy/commands`, {
        command: `test "$ORG_TOKEN" = '${ORG_VALUE}' && echo has-it`,
      })
      expect(again.body.result?.stdout).toBe('has-it\n')
    } finally {
      await setRole(team.admin, 'admin')
    }
  })

  it("a viewer cannot read, list or search the files of one that holds secrets, nor see its setup's output", async () => {
    const admin = team.admin.client
    const put = await admin.put(
      `${R}/shared/environments/registry.md`,
      definition(['secrets: [ORG_TOKEN]', `setup: ['${PRINT}']`]),
    )
    expect(put.status).toBe(201)
    const wrote = await admin.post(`${E}/registry/commands`, {
      command: 'printf "//registry/:_authToken=%s\\n" "$ORG_TOKEN" > .npmrc && echo wrote',
    })
    expect(wrote.body.result?.stdout).toBe('wrote\n')
    // The admin sees the setup output (their own doing); the file holds the token.
    const own = await admin.get(`${E}/registry/bootstrap`)
    expect(own.body.bootstrap.steps[0].tail).toContain(B64)

    // A member who only views it tries to learn the token one character at a time.
    const search = await toolCall(team.member, 'search_files', {
      environment: 'registry',
      pattern: `_authToken=${ORG_VALUE.slice(0, 3)}`,
    })
    expect(search).toMatchObject({ ok: false, error: { status: 403 } })
    const read = await toolCall(team.member, 'read_file', { environment: 'registry', path: '.npmrc' })
    expect(read).toMatchObject({ ok: false, error: { status: 403 } })
    const list = await toolCall(team.member, 'list_directory', { environment: 'registry' })
    expect(list).toMatchObject({ ok: false, error: { status: 403 } })
    const c = team.member.client
    expect((await c.get(`${E}/registry/files?scope=shared`)).status).toBe(403)
    expect((await c.get(`${E}/registry/file?scope=shared&path=.npmrc`)).status).toBe(403)
    const theirs = await c.get(`${E}/registry/bootstrap?scope=shared`)
    expect(theirs.status).toBe(200)
    expect(theirs.body.bootstrap.steps[0].tail).toBeUndefined()
    expect(JSON.stringify(theirs.body)).not.toContain(B64)
    const page = await c.get('/environments/registry?scope=shared')
    expect(page.status).toBe(200)
    expect(String(page.body)).not.toContain(B64)
  })

  it('an org MCP server an admin saved stops getting secrets once that admin loses the role', async () => {
    const made = await team.admin.client.post(M, {
      name: 'team-docs',
      url: 'https://mcp.example.com/mcp',
      scope: 'org',
      headers: { Authorization: { bearer: 'ORG_TOKEN' } },
    })
    expect(made.status).toBe(201)
    const row = async () =>
      (await getDb().select().from(mcpServers).where(eq(mcpServers.id, made.body.server.id)))[0]!
    expect((await endpointOf(await row())).headers.Authorization).toBe(`Bearer ${ORG_VALUE}`)
    await setRole(team.admin, 'member')
    try {
      await expect(endpointOf(await row())).rejects.toMatchObject({ kind: 'config' })
    } finally {
      await setRole(team.admin, 'admin')
    }
  })
})

describe('secret names the programs that start the sandbox read', () => {
  // A command's secrets are in the environment of setpriv, prlimit and bwrap on this host, before
  // the sandbox exists: LC_ALL with LOCPATH made setpriv (as the server's user) open locale files
  // from a folder the member chose; GCONV_PATH names shared objects a charset conversion loads.
  it.each(['LOCPATH', 'LC_ALL', 'GCONV_PATH', 'GLIBC_TUNABLES', 'MALLOC_ARENA_MAX', 'NLSPATH'])(
    'cannot be stored as %s, nor named by a definition, and nothing is written',
    async (name) => {
      const c = team.member.client
      const saved = await c.request('PUT', `/_agent-native/secrets/personal/${name}`, { value: 'my-locales' })
      expect(saved.status).toBe(400)
      expect(saved.body.error.field).toBe('name')
      expect(saved.body.error.message).toMatch(/read by the C library/)
      const listed = await c.get('/_agent-native/secrets')
      expect(JSON.stringify(listed.body)).not.toContain(`"${name}"`)
      const defined = await c.put(
        `${R}/personal/environments/steer-${name.toLowerCase().replaceAll('_', '-')}.md`,
        definition([`secrets: [${name}]`]),
      )
      expect(defined.status).toBe(400)
      expect(defined.body.error).toMatchObject({ field: 'secrets.0' })
    },
  )

  it('a definition and a secret stored before the rule run no command', async () => {
    // Stored as they were before the rule (no check ran on them).
    await upsertSecret({ userId: team.member.id }, 'LOCPATH', encryptSecret('planted-locales'))
    await plantFile({
      scope: 'personal',
      path: 'environments/old-steer.md',
      content: definition(['secrets: [LOCPATH]']),
      writer: team.member.id,
    })
    const box = await team.member.client.post(`${E}/old-steer/commands`, { command: 'echo ran' })
    expect(box.status).toBe(400)
    expect(JSON.stringify(box.body)).not.toContain('ran\\n')
  })
  it('any other name reaches the command only, never the programs that start it', async () => {
    // No list of names can be complete: util-linux's prlimit, which starts every command here, prints
    // its library's debug lines into the command's output when LIBSMARTCOLS_DEBUG is set.
    const c = team.member.client
    const saved = await c.request('PUT', '/_agent-native/secrets/personal/LIBSMARTCOLS_DEBUG', {
      value: '0x0000ffff',
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    const defined = await c.put(
      `${R}/personal/environments/steer-launchers.md`,
      definition(['secrets: [LIBSMARTCOLS_DEBUG]']),
    )
    expect(defined.status, JSON.stringify(defined.body)).toBe(201)
    const box = await c.post(`${E}/steer-launchers/commands`, {
      command: 'echo "inside=${#LIBSMARTCOLS_DEBUG}"',
    })
    expect(box.status, JSON.stringify(box.body)).toBe(200)
    // The command has its secret; prlimit, setpriv and bwrap on the host never saw it.
    expect(box.body.result.stdout).toBe('inside=10\n')
    expect(box.body.result.stderr).not.toMatch(/libsmartcols/)
  })
})
