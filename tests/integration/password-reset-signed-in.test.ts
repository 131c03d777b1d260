/**
 * A signed-in person who opens a mailed password-reset link gets the reset page (the auth layout
 * used to send them to /jobs), and setting the new password works; the other auth pages still
 * send a signed-in person on. Real HTTP, a real SMTP server (tests/support/smtp-sink.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const AUTH = '/_agent-native/auth'
const EMAIL = 'signed-in-forgetful@example.com'

let app: TestApp
let smtp: SmtpSink
let signedIn: ApiClient

beforeAll(async () => {
  smtp = await startSmtpSink()
  app = await startTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Clockwork <clockwork@example.com>' } })
  signedIn = app.client()
  await signedIn.signUp('Signed-in Person', EMAIL, 'the-old-password')
}, 120_000)
afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

/** A page as a browser loads it on first visit, with the person's session cookie. */
const page = (path: string) => signedIn.request('GET', path, undefined, { accept: 'text/html' })

it('still sends a signed-in person from sign-in, sign-up and forgot-password to the app', async () => {
  for (const path of ['/sign-in', '/sign-up', '/forgot-password']) {
    const res = await page(path)
    expect(res.status, path).toBe(302)
    expect(res.headers.get('location'), path).toBe('/jobs')
  }
})

it('opens the mailed reset link for a signed-in person, and the new password works', async () => {
  const asked = await app
    .client()
    .post(`${AUTH}/request-password-reset`, { email: EMAIL, redirectTo: '/reset-password' })
  expect(asked.status).toBe(200)
  const mail = await smtp.waitFor(
    (m) => m.to.includes(EMAIL) && m.subject === 'Reset your Clockwork password',
    'the reset mail',
  )
  const link = /https?:\/\/\S+\/reset-password\/\S+/.exec(mail.text)?.[0]
  expect(link, mail.text).toBeDefined()
  const hop = await fetch(link!, { redirect: 'manual' })
  const target = new URL(hop.headers.get('location')!, app.baseUrl)
  expect(target.pathname).toBe('/reset-password')
  const token = target.searchParams.get('token')

  const res = await page(target.pathname + target.search)
  expect(res.status, res.headers.get('location') ?? '').toBe(200)
  expect(String(res.body)).toContain('Choose a new password')
  expect(String(res.body)).toContain('name="password"')

  // The call the page makes, with the person's session cookie.
  const reset = await signedIn.post(`${AUTH}/reset-password`, { newPassword: 'a-fresh-password', token })
  expect(reset.status, JSON.stringify(reset.body)).toBe(200)
  expect((await app.client().signIn(EMAIL, 'a-fresh-password')).email).toBe(EMAIL)
  const old = await app.client().post(`${AUTH}/sign-in/email`, { email: EMAIL, password: 'the-old-password' })
  expect(old.status).toBe(401)
})
