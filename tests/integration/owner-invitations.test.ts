/**
 * Attack: an admin makes themselves an owner through an owner's pending owner invitation
 * (decision 0507).
 *
 * Only owners invite owners, and better-auth's own list hides owner invitations from admins. But the
 * members page listed every pending invitation, with its accept link, to admins too. An invitation
 * opens for whoever signs in with its address, and no address is verified, so an admin who had the
 * link signed up the (not yet used) address and accepted it: a second account of theirs, an owner.
 *
 * Safe outcome: an admin never sees an owner invitation nor its link (the owner does), cannot
 * cancel it (on the page or through better-auth), and the squatting account is no owner.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const ORG = '/_agent-native/auth/organization'

const membersPage = async (client: ApiClient) =>
  String((await client.request('GET', '/settings/members', undefined, { accept: 'text/html' })).body)

/** The members page's cancel, as its form posts it. */
const cancelOnPage = (client: ApiClient, invitationId: string) =>
  client.request(
    'POST',
    '/settings/members',
    new URLSearchParams({ intent: 'cancel-invitation', invitationId }).toString(),
    { 'content-type': 'application/x-www-form-urlencoded' },
  )

/** A fresh address invited by `client` into the team's organisation; its address and invitation id. */
async function invite(client: ApiClient, role: 'owner' | 'admin') {
  const email = `invited-${randomBytes(3).toString('hex')}@example.com`
  const sent = await client.post(`${ORG}/invite-member`, { email, role, organizationId: suite.team.orgId })
  expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  return { email, invitationId: sent.body.id as string }
}

const invitationStatus = async (id: string) =>
  (
    await queryRows<{ status: string }>(
      suite.app.server.db.db,
      sql`select status from invitation where id = ${id}`,
    )
  )[0]?.status

describe('an owner invitation and an admin', () => {
  it('is neither shown, cancelled nor taken over by the admin', async () => {
    const { owner, admin, orgId } = suite.team
    const { email: cofounder, invitationId } = await invite(owner.client, 'owner')
    const link = `/accept-invitation/${invitationId}`

    // The owner sees it with its link; the admin sees neither, and is told why.
    expect(await membersPage(owner.client)).toContain(link)
    const adminPage = await membersPage(admin.client)
    expect(adminPage).not.toContain(invitationId)
    expect(adminPage).not.toContain(cofounder)
    expect(adminPage).toContain('Invitations to become an owner are shown to owners only.')

    // Nor does the admin cancel it, on the page or through better-auth.
    await cancelOnPage(admin.client, invitationId)
    const viaAuth = await admin.client.post(`${ORG}/cancel-invitation`, { invitationId })
    expect(viaAuth.status, JSON.stringify(viaAuth.body)).toBe(403)
    expect(JSON.stringify(viaAuth.body)).toContain('Only owners can cancel an invitation to become an owner')
    expect(await invitationStatus(invitationId)).toBe('pending')

    // The admin registers the invited address, but has no invitation to accept.
    const squatter = suite.app.client()
    await squatter.signUp('Adam Again', cofounder)
    const listed = await squatter.get(`${ORG}/list-user-invitations`)
    expect(listed.status).toBe(403)
    expect((await squatter.post(`${ORG}/accept-invitation`, { invitationId: 'not-shown' })).status).toBe(400)
    const roles = await queryRows<{ role: string }>(
      suite.app.server.db.db,
      sql`select m.role from member m join "user" u on u.id = m.user_id
          where m.organization_id = ${orgId} and u.email = ${cofounder}`,
    )
    expect(roles).toEqual([])
    expect(await invitationStatus(invitationId)).toBe('pending')
  })

  it('is cancelled by an owner, on the page', async () => {
    const { invitationId } = await invite(suite.team.owner.client, 'owner')
    await cancelOnPage(suite.team.owner.client, invitationId)
    expect(await invitationStatus(invitationId)).toBe('canceled')
  })

  it('leaves an admin every invitation they could send: shown, linked and cancellable', async () => {
    const { admin } = suite.team
    const { invitationId } = await invite(admin.client, 'admin')
    expect(await membersPage(admin.client)).toContain(`/accept-invitation/${invitationId}`)
    await cancelOnPage(admin.client, invitationId)
    expect(await invitationStatus(invitationId)).toBe('canceled')
  })
})
