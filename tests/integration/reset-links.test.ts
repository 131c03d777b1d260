/**
 * A way back in without email (issue 26 item 8, decision 0254): an organisation's admin makes a
 * one-time password reset link for a member (API and the members page), the member sets a new
 * password with it on the real reset endpoint and signs in; the link works once, expires, is
 * replaced by a newer one, and every link made is in the organisation's member audit. Written as
 * attacks too: a plain member, an admin for an owner, anyone for someone outside the organisation.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const linkFor = (userId: string) => `/_agent-native/members/${userId}/reset-link`
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!

async function resetWith(token: string, newPassword: string) {
  return suite.app.client().post('/_agent-native/auth/reset-password', { token, newPassword })
}

async function canSignIn(email: string, password: string) {
  const res = await new ApiClient(suite.app.baseUrl).post('/_agent-native/auth/sign-in/email', {
    email,
    password,
  })
  return res.status === 200
}

const auditRows = () =>
  queryRows<Record<string, string>>(
    suite.app.server.db.db,
    sql`select actor_id, subject_user_id, action, org_id from member_audit order by at`,
  )

describe('an admin makes a reset link', () => {
  it('gives a one-time link the member uses to choose a new password, audited', async () => {
    const { admin, member, orgId } = suite.team
    const res = await admin.client.post(linkFor(member.id))
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.link).toMatch(new RegExp(`^${suite.app.baseUrl}/reset-password\\?token=[\\w-]{32}$`))
    const hours = (Date.parse(res.body.expiresAt) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23)
    expect(hours).toBeLessThanOrEqual(24)
    expect(await auditRows()).toContainEqual({
      actor_id: admin.id,
      subject_user_id: member.id,
      action: 'reset_link_created',
      org_id: orgId,
    })

    // The page the link opens is the reset page, and the token works with better-auth's reset.
    const page = await suite.app
      .client()
      .request('GET', new URL(res.body.link).pathname + new URL(res.body.link).search, undefined, {
        accept: 'text/html',
      })
    expect(page.status).toBe(200)
    expect(String(page.body)).toContain('Choose a new password')
    const used = await resetWith(tokenOf(res.body.link), 'a-brand-new-password')
    expect(used.status, JSON.stringify(used.body)).toBe(200)
    expect(await canSignIn(member.email, 'a-brand-new-password')).toBe(true)
    expect(await canSignIn(member.email, 'password1234')).toBe(false)
    // Every session of the account ended with the reset (decision 0522): the member signs in again.
    expect((await member.client.get('/_agent-native/auth/get-session')).body).toBeNull()
    await member.client.signIn(member.email, 'a-brand-new-password')
    await member.client.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })

    // Single use.
    const again = await resetWith(tokenOf(res.body.link), 'yet-another-password')
    expect(again.status).toBe(400)
    expect(await canSignIn(member.email, 'yet-another-password')).toBe(false)

    // The members page shows the trail to admins.
    const html = String(
      (await admin.client.request('GET', '/settings/members', undefined, { accept: 'text/html' })).body,
    )
    expect(html).toContain('Account help')
    expect(html).toMatch(/made a password reset\s*(<!-- -->)?\s*link for/)
  })

  it('makes only the newest link work, and an expired one not at all', async () => {
    const { owner, creator } = suite.team
    const first = await owner.client.post(linkFor(creator.id))
    const second = await owner.client.post(linkFor(creator.id))
    expect([first.status, second.status]).toEqual([201, 201])
    expect((await resetWith(tokenOf(first.body.link), 'first-link-password')).status).toBe(400)

    await suite.app.server.db.db.execute(
      sql`update verification set expires_at = now() - interval '1 minute'
          where identifier = ${`reset-password:${tokenOf(second.body.link)}`}`,
    )
    expect((await resetWith(tokenOf(second.body.link), 'second-link-password')).status).toBe(400)
    expect(await canSignIn(creator.email, 'password1234')).toBe(true)
  })

  it('refuses a plain member, an admin for an owner, yourself, and people outside the organisation', async () => {
    const { owner, admin, member, outsider } = suite.team
    const before = await snapshotTables()
    const cases: [ApiClient, string, number][] = [
      [member.client, admin.id, 403],
      [admin.client, owner.id, 403],
      [admin.client, admin.id, 400],
      [admin.client, outsider.id, 404],
      [outsider.client, member.id, 404],
      [suite.app.client(), member.id, 401],
    ]
    for (const [client, target, status] of cases) {
      const res = await client.post(linkFor(target))
      expect(res.status, `${target} → ${JSON.stringify(res.body)}`).toBe(status)
    }
    expect((await admin.client.get(linkFor(member.id))).status).toBe(405)
    expect(await snapshotTables()).toEqual(before)

    // An owner may make one for an admin.
    expect((await owner.client.post(linkFor(admin.id))).status).toBe(201)
  })

  it('is a button on the members page for admins (the page action answers the link)', async () => {
    const { admin, creator } = suite.team
    const form = new URLSearchParams({ intent: 'reset-link', userId: creator.id })
    const res = await admin.client.request('POST', '/settings/members', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    })
    expect(res.status).toBe(200)
    expect(String(res.body)).toContain('/reset-password?token=')
    const html = String(
      (await admin.client.request('GET', '/settings/members', undefined, { accept: 'text/html' })).body,
    )
    expect(html).toContain('Reset link')
    const asMember = String(
      (await suite.team.member.client.request('GET', '/settings/members', undefined, { accept: 'text/html' }))
        .body,
    )
    expect(asMember).not.toContain('Account help')
  })
})

describe('a reset link never opens another organisation', () => {
  /** `person` accepts an invitation of `inviter` (an owner or admin of `orgId`), staying active where they were. */
  async function invite(inviter: ApiClient, person: { client: ApiClient; email: string }, orgId: string) {
    const sent = await inviter.post('/_agent-native/auth/organization/invite-member', {
      email: person.email,
      role: 'member',
      organizationId: orgId,
    })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const accepted = await person.client.post('/_agent-native/auth/organization/accept-invitation', {
      invitationId: sent.body.id,
    })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
  }

  it('refuses the owner of another organisation a link for someone who also works in this one', async () => {
    // Vera works in organisation A. Otto owns organisation B (open sign-up) and invites her to it;
    // she accepts. Otto must not be able to take over her account, and with it her place in A.
    const { owner, outsider, orgId, outsiderOrgId } = suite.team
    const vera = suite.app.client()
    const email = `vera-${Date.now()}@example.com`
    const veraUser = await vera.signUp('Vera Victim', email)
    await invite(owner.client, { client: vera, email }, orgId)
    await vera.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })
    await invite(outsider.client, { client: vera, email }, outsiderOrgId)

    const before = await snapshotTables()
    const res = await outsider.client.post(linkFor(veraUser.id))
    expect(res.status, JSON.stringify(res.body)).toBe(403)
    expect(res.body.error.message).toMatch(/another organisation/)
    expect(await snapshotTables()).toEqual(before)
    expect(await canSignIn(email, 'password1234')).toBe(true)

    // A's owner administers every organisation Vera shares with others but one: refused too.
    expect((await owner.client.post(linkFor(veraUser.id))).status).toBe(403)
  })

  it('still lets an admin help a person whose only other organisation is their own workspace', async () => {
    const { admin } = suite.team
    const res = await admin.client.post(linkFor(suite.team.member.id))
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  })
})
