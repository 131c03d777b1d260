/**
 * Invitations are paced (decision 0489). With SMTP_URL every invitation is a mail from this
 * deployment to whatever address the inviter types, and anyone who signs up owns an organisation.
 * Written as the attacks: an admin re-sending one invitation again and again (better-auth mails it
 * each time), cancelling and inviting the same address again, and making invitations without end.
 * Real HTTP, real PostgreSQL, a real SMTP server receiving what is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const PER_DAY = 6

let app: TestApp
let team: Team
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  app = await startTestApp({
    env: { SMTP_URL: smtp.url, ORG_MAX_INVITATIONS_PER_DAY: String(PER_DAY) },
  })
  // The team's three joins are three of the organisation's invitations today.
  team = await createTeam(app)
})

afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

const invite = (email: string, resend = true) =>
  team.owner.client.post('/_agent-native/auth/organization/invite-member', {
    email,
    role: 'member',
    organizationId: team.orgId,
    resend,
  })

const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).length

describe('invitations', () => {
  it('mail one address at most once in ten minutes, however often it is re-sent', async () => {
    const victim = 'victim-resend@example.com'
    const first = await invite(victim)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    await smtp.waitFor((m) => m.to.includes(victim), 'the first invitation')

    const again = []
    for (let i = 0; i < 5; i++) again.push(await invite(victim))
    expect(again.map((r) => r.status)).toEqual([429, 429, 429, 429, 429])
    expect(again[0]!.body.error).toMatchObject({
      code: 'invitation_recently_sent',
      field: 'email',
      message: `An invitation was mailed to ${victim} less than 10 minutes ago. Share its link from the list, or send it again later.`,
    })
    // The members page's own path is paced the same.
    const form = new URLSearchParams({ intent: 'invite', email: victim, role: 'member' })
    const page = await team.owner.client.request('POST', '/settings/members', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    })
    expect(String(page.body)).toContain('less than 10 minutes ago')
    expect(mailsTo(victim)).toBe(1)
  })

  it('do not mail again when cancelled and made again', async () => {
    const victim = 'victim-cancel@example.com'
    const first = await invite(victim, false)
    expect(first.status).toBe(200)
    await smtp.waitFor((m) => m.to.includes(victim), 'the first invitation')
    const cancel = await team.owner.client.post('/_agent-native/auth/organization/cancel-invitation', {
      invitationId: first.body.id,
    })
    expect(cancel.status).toBe(200)
    const before = await snapshotTables(app.server.db)
    expect((await invite(victim, false)).status).toBe(429)
    expect(await snapshotTables(app.server.db)).toEqual(before)
    expect(mailsTo(victim)).toBe(1)
  })

  it(`are at most ${PER_DAY} a day in an organisation, cancelled ones counted, storing nothing past it`, async () => {
    // Three joins and two victims so far: one more fits.
    expect((await invite('last-one@example.com', false)).status).toBe(200)
    const before = await snapshotTables(app.server.db)
    const refused = await invite('one-too-many@example.com', false)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toMatchObject({
      code: 'too_many_invitations',
      message: `This organisation has made ${PER_DAY} invitations today, the most it may. Try again tomorrow.`,
    })
    expect(await snapshotTables(app.server.db)).toEqual(before)
    expect(mailsTo('one-too-many@example.com')).toBe(0)
    // Another organisation is not held by this one's day.
    const elsewhere = await team.outsider.client.post('/_agent-native/auth/organization/invite-member', {
      email: 'someone-else@example.com',
      role: 'member',
      organizationId: team.outsiderOrgId,
    })
    expect(elsewhere.status).toBe(200)
  })
})

describe('invitations sent at the same instant', () => {
  it('still mail one address once, however many arrive together', async () => {
    // Another organisation than the one above, whose day is used up: the outsider's has made one.
    const victim = 'victim-burst@example.com'
    const burst = await Promise.all(
      Array.from({ length: 4 }, () =>
        team.outsider.client.post('/_agent-native/auth/organization/invite-member', {
          email: victim,
          role: 'member',
          organizationId: team.outsiderOrgId,
          resend: true,
        }),
      ),
    )
    expect(burst.map((r) => r.status).sort()).toEqual([200, 429, 429, 429])
    await smtp.waitFor((m) => m.to.includes(victim), 'the invitation')
    // Every request has been answered, and each mails before it answers: this count is final.
    expect(mailsTo(victim)).toBe(1)
  })

  it('in one organisation still stop at the day’s limit, however many arrive together', async () => {
    // The outsider's organisation has made two invitations today; twelve new addresses at once.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        team.outsider.client.post('/_agent-native/auth/organization/invite-member', {
          email: `burst-${i}@example.com`,
          role: 'member',
          organizationId: team.outsiderOrgId,
        }),
      ),
    )
    expect(burst.filter((r) => r.status === 200)).toHaveLength(PER_DAY - 2)
    expect(burst.filter((r) => r.status === 429)).toHaveLength(12 - (PER_DAY - 2))
  })
})

describe('invitations from the members page and the endpoint at the same instant', () => {
  it('mail one address once: both paths take the same turns', async () => {
    // The admin's own workspace, made active: its day is untouched.
    const { admin } = team
    const orgs = await admin.client.get('/_agent-native/auth/organization/list')
    const own = (orgs.body as { id: string }[]).find((o) => o.id !== team.orgId)!
    expect(
      (await admin.client.post('/_agent-native/auth/organization/set-active', { organizationId: own.id }))
        .status,
    ).toBe(200)
    const victim = 'victim-both-paths@example.com'
    const viaPage = () =>
      admin.client.request(
        'POST',
        '/settings/members',
        new URLSearchParams({ intent: 'invite', email: victim, role: 'member' }).toString(),
        { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      )
    const viaEndpoint = () =>
      admin.client.post('/_agent-native/auth/organization/invite-member', {
        email: victim,
        role: 'member',
        organizationId: own.id,
        resend: true,
      })
    await Promise.all([viaPage(), viaPage(), viaPage(), viaEndpoint()])
    await smtp.waitFor((m) => m.to.includes(victim), 'the invitation')
    expect(mailsTo(victim)).toBe(1)
  })
})
