/**
 * Attack: an admin's reset link was checked only when made (decisions 0350, 0508), and works for a
 * day. Adam (admin of A) made one for Vera while she was only in A; that afternoon she accepted
 * Otto's invitation to B as admin; Adam set her password with the link, signed in as her, made B
 * active and read its jobs: 200, Adam was an admin of B as Vera. The same when her own workspace
 * gained a member, an invitation reached her, or Adam lost his role, in between.
 *
 * Safe outcome (decision 0522): the link is checked again when used, against its maker as they are
 * then; one that no longer fits is void and the reset refused (403 `reset_link_no_longer_fits`),
 * and a join voids the links it outgrows at once. A link that still fits keeps working.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { withTeamApp } from '#tests/support/team-app.ts'
import type { TeamPerson } from '#tests/support/team.ts'

const suite = withTeamApp()
const ORG = '/_agent-native/auth/organization'
const NEW_PASSWORD = 'adam-chose-this-1234'

/** Someone's own session, from sign-up, in their own workspace. */
async function signUp(name: string): Promise<TeamPerson> {
  const client = suite.app.client()
  const email = `${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`
  const { id } = await client.signUp(name, email)
  return { client, id, email, name }
}

/** `person` joins `orgId` on `inviter`'s invitation, accepting it themselves. */
async function join(inviter: ApiClient, person: TeamPerson, orgId: string, role: 'member' | 'admin') {
  const sent = await inviter.post(`${ORG}/invite-member`, {
    email: person.email,
    role,
    organizationId: orgId,
  })
  expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  const accepted = await person.client.post(`${ORG}/accept-invitation`, { invitationId: sent.body.id })
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
}

/** Vera, a member of A, and the reset link `maker` (A's admin by default) makes for her. */
async function veraWithLink(maker: ApiClient = suite.team.admin.client) {
  const vera = await signUp('Vera')
  await join(suite.team.owner.client, vera, suite.team.orgId, 'member')
  const link = await maker.post(`/_agent-native/members/${vera.id}/reset-link`)
  expect(link.status, JSON.stringify(link.body)).toBe(201)
  return { vera, token: new URL(link.body.link).searchParams.get('token')! }
}

const resetWith = (token: string) =>
  suite.app.client().post('/_agent-native/auth/reset-password', { token, newPassword: NEW_PASSWORD })

const tokenRows = (token: string) =>
  queryRows(
    suite.app.server.db.db,
    sql`select id from verification where identifier = ${`reset-password:${token}`}`,
  )

/** The link's holder signs in as Vera with the password they chose, and opens `orgId`. */
async function openAsVera(vera: TeamPerson, orgId: string) {
  const holder = new ApiClient(suite.app.baseUrl)
  const signIn = await holder.post('/_agent-native/auth/sign-in/email', {
    email: vera.email,
    password: NEW_PASSWORD,
  })
  if (signIn.status !== 200) return signIn.status
  const active = await holder.post(`${ORG}/set-active`, { organizationId: orgId })
  if (active.status !== 200) return active.status
  return (await holder.get('/_agent-native/jobs')).status
}

/** The refusal at use, after which the link is spent: a second try is better-auth's bad token. */
async function expectRefusedAndVoid(token: string, words: string) {
  const reset = await resetWith(token)
  expect(reset.status, JSON.stringify(reset.body)).toBe(403)
  expect(reset.body.error).toMatchObject({ code: 'reset_link_no_longer_fits' })
  expect(reset.body.error.message).toContain(words)
  expect(await tokenRows(token)).toEqual([])
  const again = await resetWith(token)
  expect(again.status, JSON.stringify(again.body)).toBe(400)
  expect(again.body.code).toBe('INVALID_TOKEN')
}

describe("an admin's reset link used after the account outgrew it", () => {
  it('does not open an organisation the person joined in between', async () => {
    const { outsider, outsiderOrgId } = suite.team
    const { vera, token } = await veraWithLink()
    await join(outsider.client, vera, outsiderOrgId, 'admin')

    // The join voided the link at once; using it changes nothing.
    expect(await tokenRows(token)).toEqual([])
    const reset = await resetWith(token)
    expect(reset.status, JSON.stringify(reset.body)).toBe(400)
    expect(await openAsVera(vera, outsiderOrgId)).toBe(401)
    expect((await vera.client.get('/_agent-native/auth/get-session')).body?.user.id).toBe(vera.id)
  })

  it('does not open their own workspace once someone else joined it', async () => {
    const { vera, token } = await veraWithLink()
    const [workspace] = await queryRows<{ id: string }>(
      suite.app.server.db.db,
      sql`select organization_id as id from member where user_id = ${vera.id} and role = 'owner'`,
    )
    const workspaceId = workspace!.id
    const friend = await signUp('Friend')
    await join(vera.client, friend, workspaceId, 'member')

    expect(await tokenRows(token)).toEqual([])
    expect((await resetWith(token)).status).toBe(400)
    expect(await openAsVera(vera, workspaceId)).toBe(401)
  })

  it('is refused once an invitation its maker could not have sent reached the person', async () => {
    const { outsider, outsiderOrgId } = suite.team
    const { vera, token } = await veraWithLink()
    const sent = await outsider.client.post(`${ORG}/invite-member`, {
      email: vera.email,
      role: 'admin',
      organizationId: outsiderOrgId,
    })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)

    await expectRefusedAndVoid(token, 'pending invitation to an organisation')
    expect(await openAsVera(vera, suite.team.orgId)).toBe(401)
  })

  it('is refused once its maker is no longer an admin where the person is', async () => {
    const { owner, orgId } = suite.team
    const ada = await signUp('Ada')
    await join(owner.client, ada, orgId, 'admin')
    await ada.client.post(`${ORG}/set-active`, { organizationId: orgId })
    const { vera, token } = await veraWithLink(ada.client)
    const [membership] = await queryRows<{ id: string }>(
      suite.app.server.db.db,
      sql`select id from member where user_id = ${ada.id} and organization_id = ${orgId}`,
    )
    const demoted = await owner.client.post(`${ORG}/update-member-role`, {
      memberId: membership!.id,
      role: 'member',
      organizationId: orgId,
    })
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200)

    await expectRefusedAndVoid(token, 'does not administer')
    expect(await openAsVera(vera, orgId)).toBe(401)
  })

  it('is refused once the person left the organisation it was made in', async () => {
    const { vera, token } = await veraWithLink()
    const left = await vera.client.post(`${ORG}/leave`, { organizationId: suite.team.orgId })
    expect(left.status, JSON.stringify(left.body)).toBe(200)

    await expectRefusedAndVoid(token, 'no longer administers an organisation this account belongs to')
  })

  it('still works when what the person joined is run by its maker too', async () => {
    const { admin } = suite.team
    const { vera, token } = await veraWithLink()
    const made = await admin.client.post(`${ORG}/create`, {
      name: 'Adams side project',
      slug: `side-${vera.id.toLowerCase()}`,
      keepCurrentActiveOrganization: true,
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    await join(admin.client, vera, made.body.id, 'member')

    expect((await resetWith(token)).status).toBe(200)
    expect(await openAsVera(vera, made.body.id)).toBe(200)
  })
})
