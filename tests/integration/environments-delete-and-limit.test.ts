/**
 * An environment could not be deleted: its record, folder and snapshot stayed after its definition
 * was gone, so a member could fill the server's disk by defining, using and deleting environment
 * after environment. Now its owner (or an admin, for a shared one) deletes it, and an organisation
 * holds at most MAX_ENVIRONMENTS_PER_ORG records, first uses taking turns so none slips past the
 * count (decision 0461). Written as the attacks, over real HTTP, Postgres and the real sandbox.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { MAX_ENVIRONMENTS_PER_ORG } from '#server/environments/environments-quota.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import {
  handleEnvironmentAction,
  handleEnvironmentsListAction,
  loadEnvironmentPage,
  loadEnvironmentsList,
} from '#server/pages/environments-page.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

let agent: AgentApp
let team: Team

// The agent app brings the environments folder and the team; the fake model only scripts the
// agent's file writes that race a delete.
beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-envs-delete-0461', environmentsDir: 'clockwork-envs-delete-' })
  team = agent.team
})
afterAll(() => agent?.close())

const db = () => agent.app.server.db.db
type Row = { id: string; name: string; dir: string }
const orgEnvironments = () =>
  queryRows<Row>(db(), sql`select id, name, dir from environments where org_id = ${team.orgId} order by id`)
const folderOf = (row: Row) => path.join(agent.dir!, 'environments', row.dir)

/** Defines `name` in `scope` and uses it once (a file written), answering the command's response. */
async function defineAndUse(client: ApiClient, scope: 'personal' | 'shared', name: string) {
  const put = await client.put(`${R}/${scope}/environments/${name}.md`, environmentTemplate(name))
  expect(put.status, JSON.stringify(put.body)).toBe(201)
  return client.post(`${E}/${name}/commands?scope=${scope}`, { command: 'echo kept > kept.txt' })
}

describe('deleting an environment', () => {
  let mine: Row
  let shared: Row

  beforeAll(async () => {
    const a = await defineAndUse(team.member.client, 'personal', 'mine')
    const b = await defineAndUse(team.creator.client, 'shared', 'team-box')
    expect([a.status, b.status]).toEqual([200, 200])
    const rows = await orgEnvironments()
    mine = rows.find((r) => r.id === a.body.environmentId)!
    shared = rows.find((r) => r.id === b.body.environmentId)!
  })

  it("is refused for another's personal environment and to a member for a shared one; nothing changes", async () => {
    const before = await orgEnvironments()
    // Unfixed, DELETE was not a method of the route (405) and nothing deleted an environment.
    const attempts = [
      [team.admin, mine, 404],
      [team.creator, mine, 404],
      [team.outsider, mine, 404],
      [team.outsider, shared, 404],
      [team.member, shared, 403],
      [team.creator, shared, 403],
    ] as const
    for (const [person, row, status] of attempts) {
      const res = await person.client.delete(`${E}/${row.id}`)
      expect(res.status, `${person.name} deleting ${row.name}`).toBe(status)
    }
    expect(await orgEnvironments()).toEqual(before)
    expect(existsSync(path.join(folderOf(mine), 'kept.txt'))).toBe(true)
    expect(existsSync(path.join(folderOf(shared), 'kept.txt'))).toBe(true)
  })

  it('is done by its owner (personal) and an admin (shared): folder and record go, the audit stays', async () => {
    expect((await team.member.client.delete(`${E}/${mine.id}`)).status).toBe(204)
    expect((await team.admin.client.delete(`${E}/${shared.id}`)).status).toBe(204)
    for (const row of [mine, shared]) {
      expect(existsSync(folderOf(row)), row.name).toBe(false)
      expect((await team.admin.client.get(`${E}/${row.id}/audit`)).status).toBe(404)
      const audit = await queryRows(
        db(),
        sql`select id from environment_audit where environment_id = ${row.id}`,
      )
      expect(audit.length, `${row.name}'s audit rows`).toBeGreaterThan(0)
    }
    expect((await orgEnvironments()).map((r) => r.id)).not.toContain(mine.id)
    // The definition is still there: the environment is listed as never used, and its next use starts empty.
    const listed = (await team.member.client.get(E)).body.environments.find((e: any) => e.name === 'mine')
    expect(listed).toMatchObject({ id: null, status: 'not_started' })
    const again = await team.member.client.post(`${E}/mine/commands`, {
      command: 'test -e kept.txt && echo kept || echo gone',
    })
    expect(again.body.result).toMatchObject({ exitCode: 0, stdout: 'gone\n' })
  })

  it('refuses the built-in scratch', async () => {
    const used = await team.member.client.post(`${E}/scratch/commands`, { command: 'true' })
    expect(used.status).toBe(200)
    const res = await team.member.client.delete(`${E}/${used.body.environmentId}`)
    expect(res.status).toBe(409)
    expect((await orgEnvironments()).map((r) => r.id)).toContain(used.body.environmentId)
  })
})

describe("the environment page's Delete", () => {
  const url = (name: string, scope: string) =>
    new URL(`${agent.app.baseUrl}/environments/${name}?${new URLSearchParams({ scope })}`)
  const callerOf = (client: ApiClient) =>
    requirePageCaller(new Request(url('x', 'personal'), { headers: { cookie: client.cookieHeader } }))
  const deleteForm = (scope: string) =>
    new Request(url('x', scope), { method: 'POST', body: new URLSearchParams({ intent: 'delete', scope }) })

  it('is offered to who may delete, refused as data to a member, and goes to the list when done', async () => {
    const used = await defineAndUse(team.member.client, 'personal', 'paged')
    const shared = await defineAndUse(team.creator.client, 'shared', 'paged-box')
    expect([used.status, shared.status]).toEqual([200, 200])
    const member = await callerOf(team.member.client)
    expect((await loadEnvironmentPage(member, 'paged', url('paged', 'personal'))).canDelete).toBe(true)
    expect((await loadEnvironmentPage(member, 'paged-box', url('paged-box', 'shared'))).canDelete).toBe(false)
    const admin = await callerOf(team.admin.client)
    expect((await loadEnvironmentPage(admin, 'paged-box', url('paged-box', 'shared'))).canDelete).toBe(true)

    const refused = await handleEnvironmentAction(member, 'paged-box', deleteForm('shared'))
    expect(refused).toMatchObject({ ok: false, intent: 'delete', error: { status: 403 } })
    const done = await handleEnvironmentAction(member, 'paged', deleteForm('personal')).catch(
      (r: unknown) => r,
    )
    expect(done).toBeInstanceOf(Response)
    expect((done as Response).headers.get('location')).toBe('/environments')
    expect((await orgEnvironments()).map((r) => r.id)).not.toContain(used.body.environmentId)
  })
})

describe("the list's Delete on a row whose definition is gone (decision 0464)", () => {
  const listUrl = new URL(`${agent?.app.baseUrl ?? 'http://localhost'}/environments`)
  const callerOf = (client: ApiClient) =>
    requirePageCaller(new Request(listUrl, { headers: { cookie: client.cookieHeader } }))
  const listForm = (fields: Record<string, string>) =>
    new Request(listUrl, { method: 'POST', body: new URLSearchParams({ intent: 'delete', ...fields }) })
  const rowOf = async (client: ApiClient, scope: string, name: string) =>
    (await loadEnvironmentsList(await callerOf(client))).environments.find(
      (e) => e.scope === scope && e.name === name,
    )

  it('is offered on such rows to who may delete, refused as data to others, and removes the row when done', async () => {
    const orphan = await defineAndUse(team.member.client, 'personal', 'orphan')
    const kept = await defineAndUse(team.member.client, 'personal', 'still-defined')
    const sharedOrphan = await defineAndUse(team.creator.client, 'shared', 'orphan-box')
    expect([orphan.status, kept.status, sharedOrphan.status]).toEqual([200, 200, 200])
    for (const [client, file] of [
      [team.member.client, 'personal/environments/orphan.md'],
      [team.creator.client, 'shared/environments/orphan-box.md'],
    ] as const) {
      expect((await client.delete(`${R}/${file}`)).status).toBeLessThan(300)
    }
    // Unfixed, no row of the list had canDelete.
    expect(await rowOf(team.member.client, 'personal', 'orphan')).toMatchObject({
      status: 'no_definition',
      canDelete: true,
    })
    // One still defined has Delete on its own page only; a member never deletes a shared one.
    expect(await rowOf(team.member.client, 'personal', 'still-defined')).toMatchObject({ canDelete: false })
    expect(await rowOf(team.member.client, 'shared', 'orphan-box')).toMatchObject({ canDelete: false })
    expect(await rowOf(team.admin.client, 'shared', 'orphan-box')).toMatchObject({ canDelete: true })

    const member = await callerOf(team.member.client)
    const before = await orgEnvironments()
    // An attack through the list's form: a member deleting the shared one, or another's personal one.
    const refused = await handleEnvironmentsListAction(
      member,
      listForm({ name: 'orphan-box', scope: 'shared' }),
    )
    expect(refused).toMatchObject({ ok: false, intent: 'delete', error: { status: 403 } })
    const admin = await callerOf(team.admin.client)
    const notTheirs = await handleEnvironmentsListAction(
      admin,
      listForm({ name: 'orphan', scope: 'personal' }),
    )
    expect(notTheirs).toMatchObject({ ok: false, error: { status: 404 } })
    const unnamed = await handleEnvironmentsListAction(member, listForm({ scope: 'sideways' }))
    expect(unnamed).toMatchObject({ ok: false })
    expect((unnamed as { error: { status: number } }).error.status).toBeLessThan(500)
    expect(await orgEnvironments()).toEqual(before)

    const done = await handleEnvironmentsListAction(member, listForm({ name: 'orphan', scope: 'personal' }))
    expect(done).toMatchObject({ ok: true, intent: 'delete' })
    expect(await rowOf(team.member.client, 'personal', 'orphan')).toBeUndefined()
    const byAdmin = await handleEnvironmentsListAction(
      admin,
      listForm({ name: 'orphan-box', scope: 'shared' }),
    )
    expect(byAdmin).toMatchObject({ ok: true })
    const ids = (await orgEnvironments()).map((r) => r.id)
    expect(ids).not.toContain(orphan.body.environmentId)
    expect(ids).not.toContain(sharedOrphan.body.environmentId)
    expect(ids).toContain(kept.body.environmentId)
  })
})

// Each race empties a folder of 3,000 files, some several times: about 20 s a test in CI, more on
// a busier machine, where vitest's default 30 s cut one short.
describe(
  'deletes racing each other, a command and file writes (decisions 0471, 0472)',
  { timeout: 120_000 },
  () => {
    /**
     * `racy`, used and holding a few thousand files, so that emptying its folder takes a while.
     * Unfixed, the busy check was passed once at the start: two deletes at once both emptied the
     * folder (500, the folder half gone, the record kept), and a command starting meanwhile ran in
     * a folder being emptied (500 spawning in it, or 200 beside a delete's 204 or 500).
     */
    async function fullRacy(): Promise<Row> {
      const filled = await team.member.client.post(`${E}/racy/commands`, {
        command: 'mkdir -p d && for i in $(seq 1 3000); do : > d/f$i; done',
      })
      expect(filled.status, JSON.stringify(filled.body)).toBe(200)
      return (await orgEnvironments()).find((r) => r.id === filled.body.environmentId)!
    }

    beforeAll(async () => {
      const put = await team.member.client.put(
        `${R}/personal/environments/racy.md`,
        environmentTemplate('racy'),
      )
      expect(put.status).toBe(201)
    })

    it('lets one of two deletes at once do it; the other is 409, and nothing is left half deleted', async () => {
      for (let round = 0; round < 3; round++) {
        const row = await fullRacy()
        const answers = await Promise.all([
          team.member.client.delete(`${E}/${row.id}`),
          team.member.client.delete(`${E}/${row.id}`),
        ])
        expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([
          204, 409,
        ])
        expect((await orgEnvironments()).map((r) => r.id)).not.toContain(row.id)
        expect(existsSync(folderOf(row))).toBe(false)
      }
    })

    it('never runs a command in an environment being deleted: one of the two is refused, never a 500', async () => {
      for (let round = 0; round < 4; round++) {
        const row = await fullRacy()
        const [deleted, command] = await Promise.all([
          team.member.client.delete(`${E}/${row.id}`),
          team.member.client.post(`${E}/${row.id}/commands`, { command: 'echo ran > ran.txt' }),
        ])
        const outcome = `delete ${deleted.status}, command ${command.status}`
        const detail = `${outcome}: ${JSON.stringify([deleted.body, command.body])}`
        const kept = (await orgEnvironments()).find((r) => r.id === row.id)
        if (deleted.status === 204) {
          // Deleted: the command was refused (busy while it went, or gone after), nothing came back.
          expect(['delete 204, command 409', 'delete 204, command 404'], detail).toContain(outcome)
          expect(kept, detail).toBeUndefined()
          expect(existsSync(folderOf(row)), detail).toBe(false)
        } else {
          // The command got there first: it ran, the delete was refused, the folder is whole.
          expect(outcome, detail).toBe('delete 409, command 200')
          expect(kept, detail).toBeDefined()
          expect(existsSync(path.join(folderOf(row), 'ran.txt')), detail).toBe(true)
          expect(existsSync(path.join(folderOf(row), 'd', 'f3000')), detail).toBe(true)
        }
      }
    })

    it('never writes into a folder being emptied: a write and a delete at once, never a 500 or a half-gone folder', async () => {
      // 500 folders deep: the write makes them one at a time, so it is still going when the delete
      // is asked. Unfixed, the delete emptied the folder under it: the write answered 500 (a folder
      // gone under its next one) or the delete did (the folder not empty), leaving it half gone.
      const deep = (round: number) => `w${round}/${Array(499).fill('w').join('/')}/f.txt`
      for (let round = 0; round < 3; round++) {
        const row = await fullRacy()
        const paths = [deep(round), 'w1.txt', 'w2.txt', 'w3.txt']
        agent.fake.reply(
          ...paths.map((p) => toolUse('write_file', { environment: 'racy', path: p, content: 'written\n' })),
          { text: 'Written.' },
        )
        const writing = sendChat(team.member.client, { message: userText('write these files in racy') })
        await expect
          .poll(() => existsSync(path.join(folderOf(row), `w${round}`)), { interval: 1, timeout: 20_000 })
          .toBe(true)
        const deleted = await team.member.client.delete(`${E}/${row.id}`)
        const turn = await writing
        expect(turn.status).toBe(200)
        const writes = toolParts(turn.reply, 'write_file').map((p: any) =>
          p.output.ok ? 200 : p.output.error.status,
        )
        const detail = `delete ${deleted.status} ${JSON.stringify(deleted.body)}, writes ${writes}`
        expect(writes, detail).toHaveLength(paths.length)
        for (const status of writes) expect([200, 404, 409], detail).toContain(status)
        expect([204, 409], detail).toContain(deleted.status)
        const kept = (await orgEnvironments()).find((r) => r.id === row.id)
        if (deleted.status === 204) {
          // All of it went; a write after the delete may start the environment again, empty.
          expect(kept, detail).toBeUndefined()
          expect(existsSync(path.join(folderOf(row), 'd')), detail).toBe(false)
          expect(existsSync(path.join(folderOf(row), `w${round}`)), detail).toBe(false)
        } else {
          // The write was going on: the delete waited for nothing and the folder is whole.
          expect(kept, detail).toBeDefined()
          expect(existsSync(path.join(folderOf(row), 'd', 'f3000')), detail).toBe(true)
          expect(existsSync(path.join(folderOf(row), deep(round))), detail).toBe(writes[0] === 200)
        }
      }
    })
  },
)

describe('an organisation holds at most MAX_ENVIRONMENTS_PER_ORG environments', () => {
  /** Fills the organisation up to `count` counted records with shared ones no one uses. */
  async function fillTo(count: number) {
    const [counted] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from environments where org_id = ${team.orgId}
          and name <> 'scratch' and name not like 'scratch:%'`,
    )
    const n = counted!.n
    for (let i = 0; i < count - n; i++) {
      await db().execute(sql`insert into environments (id, org_id, scope, created_by, name, instance_id, dir)
        values (${`env_filler${n + i}`}, ${team.orgId}, 'shared', ${team.admin.id}, ${`filler-${n + i}`},
          'elsewhere', 'nowhere')`)
    }
  }

  it('refuses a first use past the limit with 403 quota_exceeded, creating nothing', async () => {
    await fillTo(MAX_ENVIRONMENTS_PER_ORG)
    const before = await orgEnvironments()
    const res = await defineAndUse(team.member.client, 'personal', 'one-too-many')
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe('quota_exceeded')
    expect(res.body.error.message).toContain(String(MAX_ENVIRONMENTS_PER_ORG))
    expect(res.body.error.message).toMatch(/delete one/)
    expect(await orgEnvironments()).toEqual(before)
    // Scratch is not counted: it still works.
    expect((await team.member.client.post(`${E}/scratch/commands`, { command: 'true' })).status).toBe(200)
  })

  it('lets exactly one of eight first uses at once take the one free place', async () => {
    await fillTo(MAX_ENVIRONMENTS_PER_ORG)
    await db().execute(
      sql`delete from environments where id = (select min(id) from environments where name like 'filler-%')`,
    )
    const names = Array.from({ length: 8 }, (_, i) => `racer-${i}`)
    for (const name of names) {
      const put = await team.member.client.put(
        `${R}/personal/environments/${name}.md`,
        environmentTemplate(name),
      )
      expect(put.status).toBe(201)
    }
    const answers = await Promise.all(
      names.map((name) => team.member.client.post(`${E}/${name}/commands`, { command: 'true' })),
    )
    const outcomes = answers.map((a) => (a.status === 200 ? 'created' : `${a.status} ${a.body.error?.code}`))
    expect(outcomes.sort()).toEqual(['created', ...Array(7).fill('403 quota_exceeded')].sort())
    const counted = (await orgEnvironments()).filter(
      (r) => r.name !== 'scratch' && !r.name.startsWith('scratch:'),
    )
    expect(counted).toHaveLength(MAX_ENVIRONMENTS_PER_ORG)
  })
})
