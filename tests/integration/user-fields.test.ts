/**
 * Security review, finding 9: sign-up and update-user took any name (a 500 KB one was embedded in
 * every job view) and any time zone (`Mars/Olympus` broke chat and that user's runs). Both are now
 * checked in better-auth's hooks: 400 JSON naming the field, nothing written.
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let ana: ApiClient
const SIGN_UP = '/_agent-native/auth/sign-up/email'
const UPDATE = '/_agent-native/auth/update-user'

beforeAll(async () => {
  app = await startTestApp()
  ana = app.client()
  await ana.signUp('Ana Lima', 'ana@example.com')
})
afterAll(() => app?.close())

const users = () => queryRows(app.server.db.db, sql`select id, name, timezone from "user" order by id`)

describe.each([
  ['a 101-character name', { name: 'x'.repeat(101) }, 'name'],
  ['a 10,000-character name', { name: 'x'.repeat(10_000) }, 'name'],
  ['a blank name', { name: '   ' }, 'name'],
  ['a name with a NUL', { name: 'Ana\u0000Lima' }, 'name'],
  ['a name with a lone surrogate', { name: 'Ana \ud800' }, 'name'],
  ['a zone that does not exist', { timezone: 'Mars/Olympus' }, 'timezone'],
  ['an offset instead of a zone', { timezone: '+05:00' }, 'timezone'],
  ['a zone that is not a string', { timezone: 42 }, 'timezone'],
])('%s', (_what, fields, field) => {
  it('is refused at sign-up with a 400 naming the field', async () => {
    const before = await users()
    const res = await app.client().post(SIGN_UP, {
      name: 'Bo',
      email: `bo-${field}-${Date.now()}@example.com`,
      password: 'password1234',
      ...fields,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body).toMatchObject({ error: { code: 'bad_request', field } })
    expect(await users()).toEqual(before)
  })

  it('is refused by update-user with a 400 naming the field', async () => {
    const before = await users()
    const res = await ana.post(UPDATE, fields)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body).toMatchObject({ error: { code: 'bad_request', field } })
    expect(await users()).toEqual(before)
  })
})

it('takes a good name and zone', async () => {
  const res = await ana.post(UPDATE, { name: 'Ana Maria Lima', timezone: 'America/Sao_Paulo' })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const session = await ana.get('/_agent-native/auth/get-session')
  expect(session.body.user).toMatchObject({ name: 'Ana Maria Lima', timezone: 'America/Sao_Paulo' })
})
