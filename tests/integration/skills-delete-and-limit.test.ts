/**
 * Skills could not be deleted, and nothing bounded how many a member's agent proposed: one member
 * could fill the organisation's skills for good. Now a skill is deleted by an admin, or by its
 * author while it is not approved, and an organisation holds at most MAX_SKILLS_PER_ORG skills,
 * new ones taking turns so none slips past the count (decision 0457). Written as the attacks.
 */
import { readdirSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { MAX_SKILLS_PER_ORG } from '#server/environments/skills/skills-quota.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { agentWritesSkill, agentWritesSkillFile, decideSkill, skillNamed } from '#tests/support/skills.ts'
import type { Team } from '#tests/support/team.ts'

const S = '/_agent-native/skills'

let agent: AgentApp
let team: Team

beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-skills-delete-0457',
    environmentsDir: 'clockwork-skills-delete-',
  })
  team = agent.team
})
afterAll(() => agent?.close())

const db = () => agent.app.server.db.db
/** Every skill and skill audit row of the team's organisation, to show a refusal changed nothing. */
const skillTables = async () => ({
  skills: await queryRows(db(), sql`select * from skills where org_id = ${team.orgId} order by id`),
  audit: await queryRows(db(), sql`select * from skill_audit where org_id = ${team.orgId} order by id`),
})
/** The SKILL.md files named `name` left in any environment folder on disk. */
const skillFilesOnDisk = (name: string) =>
  readdirSync(agent.dir!, { recursive: true, encoding: 'utf8' }).filter((p) =>
    p.endsWith(`skills/${name}/SKILL.md`),
  )
/** The `skills/<name>` folders left in any environment folder on disk. */
const skillFoldersOnDisk = (name: string) =>
  readdirSync(agent.dir!, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith(`skills/${name}`))
const writes = (client: ApiClient, name: string) =>
  agentWritesSkillFile(client, agent.fake, name, `About ${name}.`)

describe('deleting a skill', () => {
  it("is refused to a member for another's proposal and for an approved skill, even its author's", async () => {
    await agentWritesSkill(team.creator.client, agent.fake, 'creators-draft', 'Draft rules.')
    await agentWritesSkill(team.creator.client, agent.fake, 'house-rules', 'Short sentences.')
    await decideSkill(team.admin.client, 'house-rules', 'approve')
    const draft = await skillNamed(team.creator.client, 'creators-draft')
    const shared = await skillNamed(team.creator.client, 'house-rules')
    const before = await skillTables()

    // Unfixed, DELETE was not a method of the route (405) and nothing could delete a skill.
    const attempts = [
      [team.member, draft, 403],
      [team.member, shared, 403],
      [team.creator, shared, 403],
      [team.outsider, draft, 404],
      [team.outsider, shared, 404],
    ] as const
    for (const [person, skill, status] of attempts) {
      const res = await person.client.delete(`${S}/${skill.id}`)
      expect(res.status, `${person.name} deleting ${skill.name}`).toBe(status)
    }
    expect(await skillTables()).toEqual(before)
  })

  it('is done by the author of a proposal and by an admin; the audit keeps the history', async () => {
    const draft = await skillNamed(team.creator.client, 'creators-draft')
    const shared = await skillNamed(team.admin.client, 'house-rules')
    const job = await team.member.client.post('/_agent-native/jobs', {
      name: 'ruled',
      schedule: '0 7 * * *',
      instructions: 'Follow the house rules.',
      skills: ['house-rules'],
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)

    expect((await team.creator.client.delete(`${S}/${draft.id}`)).status).toBe(204)
    expect((await team.admin.client.delete(`${S}/${shared.id}`)).status).toBe(204)
    expect((await team.admin.client.get(`${S}/${shared.id}`)).status).toBe(404)
    expect(await skillNamed(team.admin.client, 'house-rules')).toBeUndefined()
    const audit = await queryRows<{ action: string }>(
      db(),
      sql`select action from skill_audit where skill_id = ${shared.id} order by id`,
    )
    expect(audit.map((a) => a.action)).toEqual(['proposed', 'approved', 'deleted'])

    // The job naming the deleted skill still reads and saves; its runs leave the skill out.
    const id = job.body.job.id
    expect((await team.member.client.get(`/_agent-native/jobs/${id}`)).status).toBe(200)
    const edited = await team.member.client.patch(`/_agent-native/jobs/${id}`, {
      instructions: 'Follow them.',
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
  })
})

describe('skills per organisation', () => {
  /** Fills the organisation with made-up skills up to `room` places short of the limit. */
  async function fillTo(room: number) {
    const have = (await skillTables()).skills.length
    await queryRows(
      db(),
      sql`insert into skills (id, org_id, name, description, content, status, origin)
          select 'skill_fill_' || n, ${team.orgId}, 'fill-' || n, '', 'x', 'pending_approval', 'workspace'
          from generate_series(${have + 1}::int, ${MAX_SKILLS_PER_ORG - room}::int) n`,
    )
  }

  it('refuses a new skill past the limit, writing nothing, but still takes an edit', async () => {
    await agentWritesSkill(team.member.client, agent.fake, 'members-own', 'First text.')
    await fillTo(0)
    const before = await skillTables()
    expect(before.skills).toHaveLength(MAX_SKILLS_PER_ORG)

    const output = await writes(team.member.client, 'one-too-many')
    // Unfixed, the 201st skill was stored as pending like any other.
    expect(output).toMatchObject({ ok: false, error: { status: 403, code: 'quota_exceeded' } })
    expect(output.error.message).toContain(`already has ${MAX_SKILLS_PER_ORG} skills`)
    expect(await skillTables()).toEqual(before)
    // Unfixed, the refused SKILL.md stayed in the member's folder (decision 0463).
    expect(skillFilesOnDisk('one-too-many')).toEqual([])
    // Unfixed, its folder skills/one-too-many/ stayed, empty.
    expect(skillFoldersOnDisk('one-too-many')).toEqual([])
    expect(skillFilesOnDisk('members-own')).toHaveLength(1)

    const edit = await agentWritesSkillFile(team.member.client, agent.fake, 'members-own', 'Second text.')
    expect(edit.skill).toMatchObject({ name: 'members-own', status: 'pending_approval' })
  })

  it('lets exactly one of eight new skills at once take the one free place', async () => {
    const own = await skillNamed(team.member.client, 'members-own')
    expect((await team.member.client.delete(`${S}/${own.id}`)).status).toBe(204)
    const outputs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        writes(i % 2 ? team.member.client : team.creator.client, `race-${i}`),
      ),
    )
    const stored = outputs.filter((o) => o.skill?.status === 'pending_approval')
    expect(stored, JSON.stringify(outputs)).toHaveLength(1)
    expect(outputs.filter((o) => o.error?.code === 'quota_exceeded')).toHaveLength(7)
    expect((await skillTables()).skills).toHaveLength(MAX_SKILLS_PER_ORG)
    const left = Array.from({ length: 8 }, (_, i) => skillFilesOnDisk(`race-${i}`)).flat()
    expect(left).toHaveLength(1)
  })

  it('counts each organisation apart', async () => {
    const output = await writes(team.outsider.client, 'elsewhere')
    expect(output.skill).toMatchObject({ name: 'elsewhere', status: 'pending_approval' })
  })
})

describe("a skill's audit trail", () => {
  it('is read a page at a time, newest first, however long it grew', async () => {
    const { client } = team.outsider
    await agentWritesSkill(client, agent.fake, 'long-history', 'First text.')
    const skill = await skillNamed(client, 'long-history')
    // Every refused attempt by another member's agent adds a row: a trail grows without end.
    await queryRows(
      db(),
      sql`insert into skill_audit (skill_id, org_id, actor_id, action, via)
          select ${skill.id}, ${team.outsiderOrgId}, null, 'refused', 'agent' from generate_series(1, 120)`,
    )
    const ids = await queryRows<{ id: number }>(
      db(),
      sql`select id from skill_audit where skill_id = ${skill.id} order by id desc`,
    )
    expect(ids).toHaveLength(121)

    // Unfixed, the first read answered all 121 entries and no cursor.
    const first = await client.get(`${S}/${skill.id}`)
    expect(first.status).toBe(200)
    expect(first.body.skill.name).toBe('long-history')
    expect(first.body.audit).toHaveLength(50)
    expect(first.body.total).toBe(121)
    const read: number[] = first.body.audit.map((a: { id: number }) => a.id)
    let cursor: string | null = first.body.nextCursor
    while (cursor) {
      const page = await client.get(`${S}/${skill.id}?limit=40&cursor=${cursor}`)
      expect(page.status, JSON.stringify(page.body)).toBe(200)
      read.push(...page.body.audit.map((a: { id: number }) => a.id))
      cursor = page.body.nextCursor
    }
    expect(read).toEqual(ids.map((r) => Number(r.id)))
    expect(read.at(-1)).toBe(Math.min(...read))
    // Each entry names who (decision 0465): the author's proposal by name, a row without an actor as null.
    expect(first.body.audit[0].actor).toBeNull()
    const oldest = await client.get(`${S}/${skill.id}?limit=1&cursor=${read.at(-2)}`)
    expect(oldest.body.audit[0]).toMatchObject({
      action: 'proposed',
      via: 'agent',
      actor: { id: team.outsider.id, name: team.outsider.name },
    })

    const bad = await client.get(`${S}/${skill.id}?limit=0&cursor=x`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(['cursor', 'limit'])
  })
})
