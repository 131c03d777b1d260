/**
 * An attacker's review of the organisation membership lifecycle (open sign-up: every member is a
 * potential attacker). Each test is the request a member (or someone who was one) sends to keep or
 * regain a place in an organisation: invitations, what survives removal or demotion, and who may
 * act on whom. The first three describe blocks were holes (decision 0476); the last pins what held.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { createTeam, type Team, type TeamPerson } from '#tests/support/team.ts'

const ORG = '/_agent-native/auth/organization'
const J = '/_agent-native/jobs'
let suite: AgentApp

beforeAll(async () => {
  suite = await startAgentApp({ key: 'sk-ant-membership' })
}, 60_000)
afterAll(() => suite?.close())

async function signUp(name: string): Promise<TeamPerson> {
  const client = suite.app.client()
  const email = `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`
  const user = await client.signUp(name, email)
  return { client, id: user.id, email, name }
}

async function invite(inviter: ApiClient, email: string, orgId: string, role: 'admin' | 'member') {
  const sent = await inviter.post(`${ORG}/invite-member`, { email, role, organizationId: orgId })
  expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  return sent.body.id as string
}

const accept = (person: TeamPerson, invitationId: string) =>
  person.client.post(`${ORG}/accept-invitation`, { invitationId })

async function roleIn(team: Team, userId: string): Promise<string | null> {
  const { body } = await team.owner.client.get(`${ORG}/list-members?organizationId=${team.orgId}`)
  return body.members.find((m: { userId: string }) => m.userId === userId)?.role ?? null
}

const memberIdOf = async (team: Team, userId: string): Promise<string> => {
  const { body } = await team.owner.client.get(`${ORG}/list-members?organizationId=${team.orgId}`)
  return body.members.find((m: { userId: string }) => m.userId === userId).id
}

const departures = {
  'is removed': (team: Team, who: TeamPerson = team.admin) =>
    team.owner.client.post(`${ORG}/remove-member`, {
      memberIdOrEmail: who.email,
      organizationId: team.orgId,
    }),
  leaves: (team: Team) => team.admin.client.post(`${ORG}/leave`, { organizationId: team.orgId }),
  'is demoted to member': async (team: Team) =>
    team.owner.client.post(`${ORG}/update-member-role`, {
      memberId: await memberIdOf(team, team.admin.id),
      role: 'member',
      organizationId: team.orgId,
    }),
}

describe.each(Object.entries(departures))("an admin's invitations when the admin %s", (_how, depart) => {
  it('no longer let their accomplice in: an invitation carries its inviter’s authority', async () => {
    // A rogue admin sees it coming and invites a second account of theirs, as admin.
    const team = await createTeam(suite.app)
    const puppet = await signUp('Puppet')
    const invitationId = await invite(team.admin.client, puppet.email, team.orgId, 'admin')
    const departed = await depart(team)
    expect(departed.status, JSON.stringify(departed.body)).toBe(200)

    const res = await accept(puppet, invitationId)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(await roleIn(team, puppet.id)).toBeNull()
    // Nor does the members page list it to the remaining admins as still open.
    const open = await team.owner.client.get(`${ORG}/list-invitations?organizationId=${team.orgId}`)
    expect(open.body.filter((i: { status: string }) => i.status === 'pending')).toEqual([])
  })
})

it('an invitation left open from before the rule is refused at acceptance', async () => {
  const team = await createTeam(suite.app)
  const puppet = await signUp('Puppet')
  const invitationId = await invite(team.admin.client, puppet.email, team.orgId, 'admin')
  const removed = await departures['is removed'](team)
  expect(removed.status).toBe(200)
  // As an invitation sent before departures cancelled them would still be.
  await suite.app.server.db.db.execute(
    sql`update invitation set status = 'pending' where id = ${invitationId}`,
  )
  const res = await accept(puppet, invitationId)
  expect(res.status, JSON.stringify(res.body)).toBe(400)
  expect(res.body.error?.message ?? res.body.message).toMatch(/no longer valid/)
  expect(await roleIn(team, puppet.id)).toBeNull()
})

/**
 * One chat turn of `person` whose model asks, after `meanwhile` happened mid-turn, for manage-jobs
 * to create a shared job with `fields`: expects the tool refused (403) and no such job made.
 */
async function expectNoJobFromTurn(
  team: Team,
  person: TeamPerson,
  meanwhile: () => Promise<{ status: number; body: unknown }>,
  fields: Record<string, unknown>,
) {
  const name = `mid-turn-${randomBytes(3).toString('hex')}`
  suite.fake.reply(
    async () => {
      const done = await meanwhile()
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      const job = { action: 'create', name, scope: 'shared', schedule: '0 9 * * *', ...fields }
      return toolUse('manage-jobs', job)
    },
    { text: 'Done.' },
  )
  const turn = await sendChat(person.client, { message: userText('make a job') })
  expect(turn.status).toBe(200)
  // The departure ends the turn (decision 0476), or, should the tool call come first, refuses it.
  const output = toolParts(turn.reply, 'manage-jobs')[0]?.output as
    { ok?: boolean; error?: { status?: number } } | undefined
  const refused = output === undefined || (output.ok === false && output.error?.status === 403)
  expect(refused, JSON.stringify(output)).toBe(true)
  const listed = await team.owner.client.get(J)
  expect(listed.body.jobs.map((j: { name: string }) => j.name)).not.toContain(name)
}

describe("a conversation's tools after its person lost their place", () => {
  it('a removed member’s running chat turn creates no job in the organisation', async () => {
    const team = await createTeam(suite.app)
    await expectNoJobFromTurn(team, team.member, () => departures['is removed'](team, team.member), {
      instructions: 'Keep going.',
    })
  })

  it("a demoted admin's running chat turn does not spend the organisation's key", async () => {
    const team = await createTeam(suite.app)
    await expectNoJobFromTurn(team, team.admin, () => departures['is demoted to member'](team), {
      runAs: 'shared',
      instructions: 'Spend the organisation key.',
    })
  })
})

describe('a calendar feed token of someone who left', () => {
  const feed = (token: string) =>
    fetch(`${suite.app.baseUrl}/_agent-native/calendar.ics?token=${encodeURIComponent(token)}`)

  it('does not come back when they are invited again', async () => {
    const team = await createTeam(suite.app)
    const made = await team.member.client.post('/_agent-native/calendar/tokens')
    expect(made.status).toBe(201)
    expect((await feed(made.body.token)).status).toBe(200)

    const removed = await team.admin.client.post(`${ORG}/remove-member`, {
      memberIdOrEmail: team.member.email,
      organizationId: team.orgId,
    })
    expect(removed.status).toBe(200)
    expect((await feed(made.body.token)).status).toBe(401)

    // Invited back later (as an access token, the old feed must not work again on its own).
    expect(
      (await accept(team.member, await invite(team.owner.client, team.member.email, team.orgId, 'member')))
        .status,
    ).toBe(200)
    expect((await feed(made.body.token)).status).toBe(401)
  })

  it('ends with a password reset, as access tokens do', async () => {
    const team = await createTeam(suite.app)
    const made = await team.member.client.post('/_agent-native/calendar/tokens')
    expect(made.status).toBe(201)
    const link = await team.admin.client.post(`/_agent-native/members/${team.member.id}/reset-link`)
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    expect((await feed(made.body.token)).status).toBe(401)
  })
})

describe('what held (probes)', () => {
  let team: Team
  beforeAll(async () => {
    team = await createTeam(suite.app)
  }, 60_000)

  it('an invitation opens only for its address, once, and only while it is open', async () => {
    const intended = await signUp('Intended')
    const other = await signUp('Other')
    const invitationId = await invite(team.admin.client, intended.email, team.orgId, 'member')
    // Someone else holding the link.
    expect((await accept(other, invitationId)).status).toBe(403)
    expect((await other.client.get(`${ORG}/get-invitation?id=${invitationId}`)).status).toBe(403)
    // The address's owner, twice.
    expect((await accept(intended, invitationId)).status).toBe(200)
    expect((await accept(intended, invitationId)).status).toBe(400)
    expect(await roleIn(team, intended.id)).toBe('member')

    // Revoked before it is used.
    const late = await signUp('Late')
    const revoked = await invite(team.admin.client, late.email, team.orgId, 'member')
    const cancelled = await team.admin.client.post(`${ORG}/cancel-invitation`, { invitationId: revoked })
    expect(cancelled.status).toBe(200)
    expect((await accept(late, revoked)).status).toBe(400)
    expect(await roleIn(team, late.id)).toBeNull()
  })

  it('an invitation to organisation B makes nobody a member of A, whatever the body names', async () => {
    const person = await signUp('Crossing')
    const invitationId = await invite(team.outsider.client, person.email, team.outsiderOrgId, 'member')
    const res = await person.client.post(`${ORG}/accept-invitation`, {
      invitationId,
      organizationId: team.orgId,
    })
    expect(res.status).toBe(200)
    expect(res.body.member.organizationId).toBe(team.outsiderOrgId)
    expect(await roleIn(team, person.id)).toBeNull()
  })

  it('a member invites nobody, and an admin invites no owner', async () => {
    const person = await signUp('Hopeful')
    const asMember = await team.member.client.post(`${ORG}/invite-member`, {
      email: person.email,
      role: 'admin',
      organizationId: team.orgId,
    })
    expect(asMember.status).toBe(403)
    const asOwner = await team.admin.client.post(`${ORG}/invite-member`, {
      email: person.email,
      role: 'owner',
      organizationId: team.orgId,
    })
    expect(asOwner.status).toBe(403)
  })

  it('the last owner can neither leave nor demote themself; an admin cannot demote or remove the owner', async () => {
    const ownerMemberId = await memberIdOf(team, team.owner.id)
    expect((await team.owner.client.post(`${ORG}/leave`, { organizationId: team.orgId })).status).toBe(400)
    const demote = await team.owner.client.post(`${ORG}/update-member-role`, {
      memberId: ownerMemberId,
      role: 'admin',
      organizationId: team.orgId,
    })
    expect(demote.status).toBe(400)
    const byAdmin = await team.admin.client.post(`${ORG}/update-member-role`, {
      memberId: ownerMemberId,
      role: 'member',
      organizationId: team.orgId,
    })
    expect(byAdmin.status).toBe(403)
    const removeOwner = await team.admin.client.post(`${ORG}/remove-member`, {
      memberIdOrEmail: team.owner.email,
      organizationId: team.orgId,
    })
    expect(removeOwner.status).toBeGreaterThanOrEqual(400)
    expect(await roleIn(team, team.owner.id)).toBe('owner')
  })

  it("another organisation's owner neither promotes, demotes nor removes anyone here", async () => {
    const memberId = await memberIdOf(team, team.member.id)
    for (const organizationId of [team.outsiderOrgId, team.orgId]) {
      const promote = await team.outsider.client.post(`${ORG}/update-member-role`, {
        memberId,
        role: 'admin',
        organizationId,
      })
      expect(promote.status, JSON.stringify(promote.body)).toBeGreaterThanOrEqual(400)
      const remove = await team.outsider.client.post(`${ORG}/remove-member`, {
        memberIdOrEmail: memberId,
        organizationId,
      })
      expect(remove.status, JSON.stringify(remove.body)).toBeGreaterThanOrEqual(400)
    }
    expect(await roleIn(team, team.member.id)).toBe('member')
  })

  it('transfer-jobs: a member may not, an admin of another organisation reaches nobody here', async () => {
    const made = await team.creator.client.post(J, {
      name: 'transfer-me',
      scope: 'shared',
      schedule: '0 9 * * *',
      instructions: 'Summarise.',
    })
    expect(made.status).toBe(201)
    const path = `/_agent-native/members/${team.creator.id}/transfer-jobs`
    expect((await team.member.client.post(path, { toUserId: team.member.id })).status).toBe(403)
    // The outsider owns B: naming A's people moves nothing (A's jobs are not in B).
    const cross = await team.outsider.client.post(path, { toUserId: team.outsider.id })
    expect(cross.status, JSON.stringify(cross.body)).toBe(200)
    expect(cross.body.jobs).toEqual([])
    expect((await team.outsider.client.post(path, { toUserId: team.member.id })).status).toBe(400)
    const job = await team.admin.client.get(`${J}/${made.body.job.id}`)
    expect(job.body.job.createdBy.id).toBe(team.creator.id)
  })

  it("a removed member's session, personal access token and personal jobs stop acting in the organisation", async () => {
    const local = await createTeam(suite.app)
    const personal = await local.member.client.post(J, {
      name: 'mine',
      scope: 'personal',
      schedule: '*/5 * * * *',
      instructions: 'Mine.',
    })
    expect(personal.status).toBe(201)
    const pat = await local.member.client.post('/_agent-native/access-tokens', {
      name: 'laptop',
      scopes: ['jobs:read'],
    })
    expect(pat.status, JSON.stringify(pat.body)).toBe(201)
    const removed = await local.admin.client.post(`${ORG}/remove-member`, {
      memberIdOrEmail: local.member.email,
      organizationId: local.orgId,
    })
    expect(removed.status).toBe(200)

    // The session falls back to their own workspace: the org's jobs are not theirs to see.
    const seen = await local.member.client.get(`${J}/${personal.body.job.id}`)
    expect(seen.status).toBe(404)
    const mcp = await fetch(`${suite.app.baseUrl}/_agent-native/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${pat.body.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(mcp.status).toBe(401)
    // Their personal job pauses: it does not keep firing in the organisation they left.
    const [row] = await queryRows<{ suspended_reason: string; next_run_at: unknown }>(
      suite.app.server.db.db,
      sql`select suspended_reason, next_run_at from jobs where id = ${personal.body.job.id}`,
    )
    expect(row!.suspended_reason).toMatch(/left the organisation/)
    expect(row!.next_run_at).toBeNull()
  })
})
