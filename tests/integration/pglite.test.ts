import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

// The embedded default: no DATABASE_URL, PGlite in a folder, migrated at start-up.
let app: TestApp

beforeAll(async () => {
  app = await startTestApp({ pglite: true })
}, 120_000)
afterAll(() => app?.close())

it('boots on PGlite, migrates, and signs a user up', async () => {
  const health = await app.client().get('/_agent-native/health')
  expect(health.body).toEqual({ ok: true, db: 'pglite' })
  const ana = app.client()
  const user = await ana.signUp('Ana Lima', 'ana@example.com')
  expect(user.email).toBe('ana@example.com')
  const org = await ana.get('/_agent-native/auth/organization/get-full-organization')
  expect(org.body.name).toBe("Ana's workspace")
})
