/**
 * Attack: a thief signed in with a leaked password keeps their session after the person resets the
 * password. A reset is the remedy for a stolen password or session (decision 0416 ends the access
 * tokens with it), but better-auth's `revokeSessionsOnPasswordReset` was off: every session signed
 * in before the reset, the thief's among them, stayed signed in, and simply made a new access
 * token (201) after the remedy. The same with an admin's reset link.
 *
 * Safe outcome (decision 0522): a reset, by mail or with an admin's link, ends every session of the
 * account; the thief's next call is a 401. Real HTTP, a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const AUTH = '/_agent-native/auth'
const LEAKED = 'the-leaked-password'

let app: TestApp
let smtp: SmtpSink
let team: Team
beforeAll(async () => {
  smtp = await startSmtpSink()
  app = await startTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Clockwork <clockwork@example.com>' } })
  team = await createTeam(app)
}, 120_000)
afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

/** A thief signed in as `email` with the leaked password, able to make access tokens. */
async function thiefSignedInAs(email: string): Promise<ApiClient> {
  const thief = app.client()
  await thief.signIn(email, LEAKED)
  expect((await thief.get('/_agent-native/access-tokens')).status).toBe(200)
  return thief
}

/** Asks for a reset mail for `email`, follows its link and sets `newPassword`. */
async function resetByMail(email: string, newPassword: string) {
  const asked = await app
    .client()
    .post(`${AUTH}/request-password-reset`, { email, redirectTo: '/reset-password' })
  expect(asked.status).toBe(200)
  const mail = await smtp.waitFor(
    (m) => m.to.includes(email) && /reset-password/.test(m.text),
    'the reset mail',
  )
  const hop = await fetch(/https?:\/\/\S+\/reset-password\/\S+/.exec(mail.text)![0], { redirect: 'manual' })
  const token = new URL(hop.headers.get('location')!, app.baseUrl).searchParams.get('token')
  const reset = await app.client().post(`${AUTH}/reset-password`, { newPassword, token })
  expect(reset.status, JSON.stringify(reset.body)).toBe(200)
}

const mintToken = (client: ApiClient) =>
  client.post('/_agent-native/access-tokens', { name: 'after the reset', scopes: ['jobs:write'] })

describe('a password reset', () => {
  it('by mail ends the sessions signed in before it', async () => {
    const email = 'robbed-by-mail@example.com'
    await app.client().signUp('Robbed Person', email, LEAKED)
    const thief = await thiefSignedInAs(email)

    await resetByMail(email, 'a-fresh-password-99')

    expect((await mintToken(thief)).status, 'the session signed in with the leaked password').toBe(401)
    expect((await thief.get(`${AUTH}/get-session`)).body).toBeNull()
  })

  it('by mail ends the machine tokens a stolen session made (decision 0527)', async () => {
    // The thief made a machine token from the stolen session to connect a computer of their own
    // as the person's; before, a reset by mail left it working (decision 0351 ended tokens only
    // with an admin's link).
    const email = 'machine-stolen@example.com'
    await app.client().signUp('Machine Owner', email, LEAKED)
    const thief = await thiefSignedInAs(email)
    const made = await thief.post('/_agent-native/machines/tokens', { name: "thief's box" })
    expect(made.status, JSON.stringify(made.body)).toBe(201)

    await resetByMail(email, 'a-fresh-password-98')

    const owner = app.client()
    await owner.signIn(email, 'a-fresh-password-98')
    const tokens = (await owner.get('/_agent-native/machines')).body.tokens as { name: string }[]
    expect(tokens.map((t) => t.name)).not.toContain("thief's box")
  })

  it("with an admin's link ends them too", async () => {
    const { member, admin } = team
    const changed = await member.client.post(`${AUTH}/change-password`, {
      currentPassword: 'password1234',
      newPassword: LEAKED,
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    const thief = await thiefSignedInAs(member.email)

    const link = await admin.client.post(`/_agent-native/members/${member.id}/reset-link`)
    expect(link.status, JSON.stringify(link.body)).toBe(201)
    const token = new URL(link.body.link).searchParams.get('token')
    const reset = await app
      .client()
      .post(`${AUTH}/reset-password`, { newPassword: 'set-by-the-admin-1', token })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)

    expect((await mintToken(thief)).status).toBe(401)
    expect((await member.client.get(`${AUTH}/get-session`)).body).toBeNull()
  })
})
