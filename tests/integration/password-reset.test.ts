/**
 * The forgot-password and reset-password pages end to end over real HTTP, with a real SMTP
 * server (tests/support/smtp-sink.ts): the page's request goes out, the mailed link goes through
 * better-auth to the server-rendered reset page, the page's call sets the new password, and the
 * person signs in with it. Unknown addresses get the same answer and no mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const AUTH = '/_agent-native/auth'
const EMAIL = 'forgetful@example.com'

let app: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  app = await startTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Clockwork <clockwork@example.com>' } })
  await app.client().signUp('Forgetful Person', EMAIL, 'the-old-password')
}, 120_000)
afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

/** A server-rendered page, fetched as a browser would on first load (nobody signed in). */
async function page(path: string) {
  const res = await app.client().request('GET', path, undefined, { accept: 'text/html' })
  expect(res.status, path).toBe(200)
  return String(res.body)
}

/** The call the forgot-password page makes (authClient.requestPasswordReset). */
const requestReset = (email: string) =>
  app.client().post(`${AUTH}/request-password-reset`, { email, redirectTo: '/reset-password' })

describe('password reset pages', () => {
  it('links from sign-in to a forgot-password form', async () => {
    expect(await page('/sign-in')).toContain('href="/forgot-password"')
    const html = await page('/forgot-password')
    expect(html).toContain('name="email"')
    expect(html).toContain('Send reset link')
    expect(html).not.toContain('Email is off')
  })

  it('answers an unknown address exactly like a known one, and mails nobody', async () => {
    const before = smtp.mails.length
    const unknown = await requestReset('nobody-here@example.com')
    const known = await requestReset(EMAIL)
    expect(unknown.status).toBe(200)
    expect(known.status).toBe(200)
    expect(unknown.body).toEqual(known.body)
    await smtp.waitFor((m) => m.to.includes(EMAIL), 'the reset mail')
    expect(smtp.mails.slice(before).flatMap((m) => m.to)).not.toContain('nobody-here@example.com')
  })

  it('takes the mailed link to the reset page, sets the new password, and signs in with it', async () => {
    smtp.mails.length = 0
    expect((await requestReset(EMAIL)).status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes(EMAIL), 'the reset mail')
    const link = /https?:\/\/\S+\/reset-password\/\S+/.exec(mail.text)?.[0]
    expect(link, mail.text).toBeDefined()

    // better-auth checks the token and redirects to the page with ?token=…
    const hop = await fetch(link!, { redirect: 'manual' })
    expect(hop.status).toBe(302)
    const target = new URL(hop.headers.get('location')!, app.baseUrl)
    expect(target.pathname).toBe('/reset-password')
    const token = target.searchParams.get('token')
    expect(token).toBeTruthy()
    const html = await page(target.pathname + target.search)
    expect(html).toContain('Choose a new password')
    expect(html).toContain('name="password"')
    expect(html).toContain('name="confirm"')

    // The call the page makes (authClient.resetPassword): a short one is refused, naming the problem.
    const short = await app.client().post(`${AUTH}/reset-password`, { newPassword: 'short', token })
    expect(short.status).toBe(400)
    expect(short.body.code).toBe('PASSWORD_TOO_SHORT')
    const reset = await app
      .client()
      .post(`${AUTH}/reset-password`, { newPassword: 'a-fresh-password', token })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)

    const old = await app
      .client()
      .post(`${AUTH}/sign-in/email`, { email: EMAIL, password: 'the-old-password' })
    expect(old.status).toBe(401)
    const user = await app.client().signIn(EMAIL, 'a-fresh-password')
    expect(user.email).toBe(EMAIL)

    // The link works once: opening it again lands on the page with an error, which says so.
    const again = await fetch(link!, { redirect: 'manual' })
    const spent = new URL(again.headers.get('location')!, app.baseUrl)
    expect(spent.searchParams.get('error')).toBe('INVALID_TOKEN')
    expect(await page(spent.pathname + spent.search)).toContain('This link does not work')
  })

  it('shows the sign-in page a password-changed notice after the reset', async () => {
    expect(await page('/sign-in?reset=done')).toContain('Your password is changed')
  })
})
