import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

// Production keeps rate limiting on, keyed by the real client IP: behind a trusted
// proxy that is X-Forwarded-For, so one noisy client does not lock everyone out.
let app: TestApp

beforeAll(async () => {
  app = await startTestApp({ env: { AUTH_RATE_LIMIT: 'true', TRUST_PROXY: 'loopback' } })
})
afterAll(() => app?.close())

async function failedSignIn(ip: string) {
  const res = await app
    .client()
    .post(
      '/_agent-native/auth/sign-in/email',
      { email: 'nobody@example.com', password: 'wrong-password' },
      { 'x-forwarded-for': ip },
    )
  return res.status
}

it('limits sign-in attempts per client IP, not for everyone', async () => {
  const first = []
  for (let i = 0; i < 7; i++) first.push(await failedSignIn('203.0.113.7'))
  expect(first.slice(0, 5).every((s) => s === 401)).toBe(true)
  expect(first.slice(5)).toEqual([429, 429])
  // Another client behind the same proxy is unaffected.
  expect(await failedSignIn('198.51.100.9')).toBe(401)
})

it('ignores a spoofed client-IP header from the outside', async () => {
  const res = await app
    .client()
    .post(
      '/_agent-native/auth/sign-in/email',
      { email: 'nobody@example.com', password: 'wrong-password' },
      { 'x-forwarded-for': '203.0.113.7', 'x-clockwork-client-ip': '192.0.2.1' },
    )
  // The header we forward is set by the server from the trusted address, so this client is still limited.
  expect(res.status).toBe(429)
})
