/**
 * A member removed from an organisation finds their jobs there paused. A personal job cannot be
 * transferred and no admin sees it, so "An admin can take it over" was false for one: the only way
 * back is its creator, invited again, enabling it. This file follows that over real HTTP: what the
 * pause says, who may lift it (nobody but the returning creator), that lifting it counts against
 * ORG_MAX_ENABLED_JOBS, and that the run acts as the returning member.
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { runNow } from '#tests/support/runs.ts'
import type { Team, TeamPerson } from '#tests/support/team.ts'

const J = '/_agent-native/jobs'
const ORG = '/_agent-native/auth/organization'
const KEY = 'sk-ant-deployment-returning-01'

let agent: AgentApp
let team: Team

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env: { ORG_MAX_ENABLED_JOBS: '3' }, scheduler: true })
  team = agent.team
}, 120_000)
afterAll(() => agent?.close())

// Never due while the file runs, so only Run now starts a run.
const job = (name: string, scope: 'personal' | 'shared') => ({
  name,
  scope,
  schedule: '0 0 1 1 *',
  instructions: `Do ${name}.`,
})

async function create(person: TeamPerson, name: string, scope: 'personal' | 'shared'): Promise<string> {
  const res = await person.client.post(J, job(name, scope))
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job.id
}

async function inviteBack(person: TeamPerson): Promise<void> {
  const invite = await team.owner.client.post(`${ORG}/invite-member`, {
    email: person.email,
    role: 'member',
    organizationId: team.orgId,
  })
  expect(invite.status, JSON.stringify(invite.body)).toBe(200)
  const accept = await person.client.post(`${ORG}/accept-invitation`, { invitationId: invite.body.id })
  expect(accept.status, JSON.stringify(accept.body)).toBe(200)
  const active = await person.client.post(`${ORG}/set-active`, { organizationId: team.orgId })
  expect(active.status, JSON.stringify(active.body)).toBe(200)
}

/** The page's pause switch, as the job page posts it (intent "toggle"). */
const toggleOnPage = (person: TeamPerson, id: string) =>
  person.client.request(
    'POST',
    `/jobs/${id}.data`,
    new URLSearchParams({ intent: 'toggle', enabled: 'true' }).toString(),
    {
      'content-type': 'application/x-www-form-urlencoded',
    },
  )

describe('a member removed, then invited back', () => {
  let personalId: string
  let pagePersonalId: string
  let sharedId: string
  let fillerId: string

  beforeAll(async () => {
    personalId = await create(team.creator, 'my-digest', 'personal')
    pagePersonalId = await create(team.creator, 'my-notes', 'personal')
    sharedId = await create(team.creator, 'team-digest', 'shared')
    const removed = await team.admin.client.post(`${ORG}/remove-member`, {
      memberIdOrEmail: team.creator.email,
      organizationId: team.orgId,
    })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
  })

  it('a shared job still says an admin can take it over', async () => {
    const { body } = await team.admin.client.get(`${J}/${sharedId}`)
    expect(body.job.suspendedReason).toMatch(/creator left the organisation\. An admin can take it over/)
  })

  it('while they are away, nobody else reaches their personal job (404, still paused)', async () => {
    for (const person of [team.owner, team.admin, team.member]) {
      const res = await person.client.patch(`${J}/${personalId}`, { enabled: true })
      expect(res.status, JSON.stringify(res.body)).toBe(404)
    }
    const rows = await queryRows<{ suspended: string | null }>(
      agent.app.server.db.db,
      sql`select suspended_reason as suspended from jobs where id = ${personalId}`,
    )
    expect(rows[0]!.suspended).not.toBeNull()
  })

  it('back in, they see their personal jobs paused with how to resume, and no admin takeover promised', async () => {
    await inviteBack(team.creator)
    const { status, body } = await team.creator.client.get(`${J}/${personalId}`)
    expect(status).toBe(200)
    expect(body.job).toMatchObject({ enabled: true, nextRun: null, createdBy: { id: team.creator.id } })
    expect(body.job.suspendedReason).toMatch(/its creator left the organisation/)
    expect(body.job.suspendedReason).toMatch(/enable it again/)
    expect(body.job.suspendedReason).not.toMatch(/admin/i)
  })

  it('another member still cannot enable it: 404, the pause stays', async () => {
    for (const person of [team.owner, team.admin, team.member]) {
      const res = await person.client.patch(`${J}/${personalId}`, { enabled: true })
      expect(res.status, JSON.stringify(res.body)).toBe(404)
    }
    const { body } = await team.creator.client.get(`${J}/${personalId}`)
    expect(body.job.suspendedReason).not.toBeNull()
  })

  it('enabling it counts against ORG_MAX_ENABLED_JOBS: 403 quota_exceeded at the limit, the pause stays', async () => {
    // The limit is 3 and the paused jobs do not count: three enabled jobs of the admin's fill it.
    fillerId = await create(team.admin, 'filler-1', 'shared')
    await create(team.admin, 'filler-2', 'shared')
    await create(team.admin, 'filler-3', 'shared')
    const over = await team.creator.client.patch(`${J}/${personalId}`, { enabled: true })
    expect(over.status, JSON.stringify(over.body)).toBe(403)
    expect(over.body.error).toMatchObject({ code: 'quota_exceeded', field: 'enabled' })
    const page = await toggleOnPage(team.creator, pagePersonalId)
    expect(JSON.stringify(page.body)).toMatch(/ORG_MAX_ENABLED_JOBS/)
    for (const id of [personalId, pagePersonalId]) {
      const { body } = await team.creator.client.get(`${J}/${id}`)
      expect(body.job.suspendedReason).not.toBeNull()
    }
  })

  it('with room, their enabled: true lifts the pause, keeps them its creator, and the run acts as them', async () => {
    expect((await team.admin.client.patch(`${J}/${fillerId}`, { enabled: false })).status).toBe(200)
    const res = await team.creator.client.patch(`${J}/${personalId}`, { enabled: true })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.job).toMatchObject({
      enabled: true,
      suspendedReason: null,
      createdBy: { id: team.creator.id },
    })
    expect(res.body.job.nextRun).not.toBeNull()

    const { run } = await runNow(team.creator.client, personalId)
    expect(run.status, JSON.stringify(run)).toBe('success')
    const rows = await queryRows<{ runAs: string }>(
      agent.app.server.db.db,
      sql`select run_as_user_id as "runAs" from job_runs where id = ${run.id}`,
    )
    expect(rows[0]!.runAs).toBe(team.creator.id)
  })

  it("the job page's switch lifts the pause too", async () => {
    // Two fillers and my-digest are enabled: pausing my-digest makes room for my-notes.
    expect((await team.creator.client.patch(`${J}/${personalId}`, { enabled: false })).status).toBe(200)
    const page = await toggleOnPage(team.creator, pagePersonalId)
    expect(page.status).toBe(200)
    const { body } = await team.creator.client.get(`${J}/${pagePersonalId}`)
    expect(body.job).toMatchObject({
      enabled: true,
      suspendedReason: null,
      createdBy: { id: team.creator.id },
    })
  })
})
