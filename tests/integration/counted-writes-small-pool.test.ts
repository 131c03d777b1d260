/**
 * The writes a limit counts take turns under a lock held across instances (decision 0494). The
 * lock must not take the connection better-auth then writes on: on a server whose pool has one
 * connection (DATABASE_POOL_SIZE=1 is allowed), a transaction holding the lock on the pool's only
 * connection left better-auth's write waiting for it, and the request never answered.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp

beforeAll(async () => {
  app = await startTestApp({ env: { DATABASE_POOL_SIZE: '1' } })
})
afterAll(() => app?.close())

it('a server with a pool of one connection still makes organisations and invitations', async () => {
  const owner = app.client()
  await owner.signUp('Paula Pool', 'paula-pool@example.com')
  const created = await owner.post('/_agent-native/auth/organization/create', {
    name: 'Small Pool',
    slug: 'small-pool',
  })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  const invited = await owner.post('/_agent-native/auth/organization/invite-member', {
    email: 'pooled-invitee@example.com',
    role: 'member',
    organizationId: created.body.id,
  })
  expect(invited.status, JSON.stringify(invited.body)).toBe(200)
})
