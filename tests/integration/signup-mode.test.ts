/**
 * Security review, finding 7 (part): open sign-up let any stranger spend the operator's model key.
 * `SIGNUP=invite-only` lets only invited emails (and the first person on an empty instance) sign up.
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
const SIGN_UP = '/_agent-native/auth/sign-up/email'
const signUp = (email: string) =>
  app.client().post(SIGN_UP, { name: 'Some One', email, password: 'password1234' })
const userCount = async () =>
  Number((await queryRows<{ n: number }>(app.server.db.db, sql`select count(*)::int as n from "user"`))[0]!.n)

beforeAll(async () => {
  app = await startTestApp({ env: { SIGNUP: 'invite-only' } })
})
afterAll(() => app?.close())

it('lets the first person sign up on an empty instance, then only invited emails', async () => {
  const owner = app.client()
  await owner.signUp('Olga Owner', 'olga@example.com')

  const stranger = await signUp('stranger@example.com')
  expect(stranger.status).toBe(403)
  expect(stranger.body).toMatchObject({
    error: { code: 'forbidden', message: expect.stringMatching(/invitation/) },
  })
  expect(await userCount()).toBe(1)

  const session = await owner.get('/_agent-native/auth/get-session')
  const invite = await owner.post('/_agent-native/auth/organization/invite-member', {
    email: 'Invited@Example.com',
    role: 'member',
    organizationId: session.body.session.activeOrganizationId,
  })
  expect(invite.status).toBe(200)
  expect((await signUp('invited@example.com')).status).toBe(200)
  expect(await userCount()).toBe(2)
})
