/**
 * Attack: an admin's reset link opens another organisation through the person's pending invitation
 * (decision 0508, narrowing 0350).
 *
 * Decision 0350: an admin makes a reset link only when they administer every other organisation
 * (with other members) the person belongs to. A pending invitation is not a membership, so it was
 * not counted: A's admin made a link for Vera while B had invited her as admin, set her password
 * with it, signed in as her, listed her invitations (better-auth's list-user-invitations, for a
 * verified address) and accepted B's, joining an organisation the admin has no say in. An
 * invitation can also arrive after the link was used.
 *
 * Safe outcome: the link is refused (409, nothing written) while such an invitation is pending;
 * an account whose password an admin set accepts no invitation that admin could not have sent
 * (403), until the person resets the password by mail, which also ends the admin's session.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const ORG = '/_agent-native/auth/organization'
const linkFor = (userId: string) => `/_agent-native/members/${userId}/reset-link`
const db = () => suite.app.server.db.db

/** Vera: a member of A with a verified address (as with mail on), signed in. */
async function signUpVera() {
  const client = suite.app.client()
  const email = `vera-${randomBytes(3).toString('hex')}@example.com`
  const { id } = await client.signUp('Vera Victim', email)
  const toA = await suite.team.owner.client.post(`${ORG}/invite-member`, {
    email,
    role: 'member',
    organizationId: suite.team.orgId,
  })
  expect((await client.post(`${ORG}/accept-invitation`, { invitationId: toA.body.id })).status).toBe(200)
  await db().execute(sql`update "user" set email_verified = true where id = ${id}`)
  return { client, id, email }
}

/** B (Otto's organisation, with someone else in it) invites Vera as admin. */
async function inviteIntoB(email: string): Promise<string> {
  const sent = await suite.team.outsider.client.post(`${ORG}/invite-member`, {
    email,
    role: 'admin',
    organizationId: suite.team.outsiderOrgId,
  })
  expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  return sent.body.id
}

async function resetWith(token: string, newPassword: string) {
  return suite.app.client().post('/_agent-native/auth/reset-password', { token, newPassword })
}

const membersOfB = (userId: string) =>
  queryRows(
    db(),
    sql`select id from member where organization_id = ${suite.team.outsiderOrgId} and user_id = ${userId}`,
  )

/** What making a link writes: reset tokens, the member audit, the admin's link record. */
const linkRows = (userId: string) =>
  Promise.all([
    queryRows(db(), sql`select * from verification where value = ${userId} order by id`),
    queryRows(db(), sql`select * from member_audit where subject_user_id = ${userId} order by id`),
    queryRows(db(), sql`select * from admin_reset_links where user_id = ${userId}`),
  ])

describe("an admin's reset link and an invitation elsewhere", () => {
  it('is refused while the person has a pending invitation the admin could not have sent', async () => {
    const vera = await signUpVera()
    await inviteIntoB(vera.email)
    const before = await linkRows(vera.id)
    const link = await suite.team.admin.client.post(linkFor(vera.id))
    expect(link.status, JSON.stringify(link.body)).toBe(409)
    expect(link.body.error.message).toContain('pending invitation to an organisation you do not administer')
    expect(await linkRows(vera.id)).toEqual(before)
  })

  it('leaves the account unable to accept or decline an invitation that arrives after, until a reset by mail', async () => {
    const vera = await signUpVera()
    const link = await suite.team.admin.client.post(linkFor(vera.id))
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    expect(
      (await resetWith(new URL(link.body.link).searchParams.get('token')!, 'taken-over-1234')).status,
    ).toBe(200)

    // B invites Vera; the admin, signed in as her, finds the invitation and tries to accept it.
    await inviteIntoB(vera.email)
    const asVera = new ApiClient(suite.app.baseUrl)
    await asVera.signIn(vera.email, 'taken-over-1234')
    const listed = await asVera.get(`${ORG}/list-user-invitations`)
    const invitationId: string = listed.body[0].id
    const accepted = await asVera.post(`${ORG}/accept-invitation`, { invitationId })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(403)
    expect(JSON.stringify(accepted.body)).toContain(
      'Your password was last set with a reset link an admin made',
    )
    expect(await membersOfB(vera.id)).toEqual([])
    // Nor declines it for her: the invitation is still hers to answer.
    const rejected = await asVera.post(`${ORG}/reject-invitation`, { invitationId })
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(403)
    expect(JSON.stringify(rejected.body)).toContain('cannot decline invitations to other organisations')
    const still = await asVera.get(`${ORG}/list-user-invitations`)
    expect(still.body.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [invitationId, 'pending'],
    ])

    // Vera resets it by mail (the token is the one the mail carries): the admin's session ends,
    // and she accepts.
    const mailed = randomBytes(12).toString('hex')
    await db().execute(
      sql`insert into verification (id, identifier, value, expires_at, created_at, updated_at)
          values (${`mail-${mailed}`}, ${`reset-password:${mailed}`}, ${vera.id}, now() + interval '1 hour', now(), now())`,
    )
    expect((await resetWith(mailed, 'mine-again-1234')).status).toBe(200)
    expect((await asVera.get('/_agent-native/auth/get-session')).body).toBeNull()
    const own = new ApiClient(suite.app.baseUrl)
    await own.signIn(vera.email, 'mine-again-1234')
    const joined = await own.post(`${ORG}/accept-invitation`, { invitationId })
    expect(joined.status, JSON.stringify(joined.body)).toBe(200)
    expect(await membersOfB(vera.id)).toHaveLength(1)
  })
})
