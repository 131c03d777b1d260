/** Without SMTP_URL the forgot-password page says email is off instead of offering a form. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp

beforeAll(async () => {
  delete process.env.SMTP_URL
  app = await startTestApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

it('tells the person to ask an admin when email is off', async () => {
  const res = await app.client().request('GET', '/forgot-password', undefined, { accept: 'text/html' })
  expect(res.status).toBe(200)
  const html = String(res.body)
  expect(html).toContain('Email is off on this server')
  expect(html).not.toContain('name="email"')
})
