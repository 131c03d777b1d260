/**
 * Cross-site request forgery on the API (security review, finding 6): with the victim's session
 * cookie, a foreign or missing Origin and a text/plain or form body used to create jobs, overwrite
 * job files and replace the victim's model key. Every state change now needs a matching Origin (or
 * Sec-Fetch-Site: same-origin) and the expected content type, else a 403 JSON with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'

let app: TestApp
let victim: ApiClient
const EVIL = 'https://evil.example'

beforeAll(async () => {
  app = await startTestApp()
  victim = app.client()
  await victim.signUp('Vic Victim', 'vic@example.com')
  const made = await victim.post('/_agent-native/jobs', {
    name: 'existing',
    scope: 'personal',
    schedule: '0 7 * * *',
    instructions: 'Go.',
  })
  expect(made.status).toBe(201)
})
afterAll(() => app?.close())

/** Jobs, files, audit and runs, plus the accounts, sessions and model keys a forgery could touch. */
async function snapshot() {
  const db = app.server.db
  return {
    ...(await snapshotTables(db)),
    users: await queryRows(db.db, sql`select id, name from "user" order by id`),
    sessions: await queryRows(db.db, sql`select id from session order by id`),
    keys: await queryRows(db.db, sql`select * from model_keys order by id`),
  }
}

/** A request as a forged page would send it: the victim's cookie, chosen origin and type. */
async function forged(method: string, path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(app.baseUrl + path, {
    method,
    headers: { cookie: victim.cookieHeader, ...headers },
    body,
    redirect: 'manual',
  })
  const text = await res.text()
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text }
}

const job = JSON.stringify({
  name: 'forged',
  scope: 'personal',
  schedule: '* * * * *',
  instructions: 'Spend.',
})
const jobFile = `---\nschedule: '* * * * *'\n---\nSpend.\n`
const key = JSON.stringify({ scope: 'personal', apiKey: 'sk-ant-attacker-0000000000' })

describe.each([
  [
    'POST /jobs, foreign Origin, JSON',
    'POST',
    '/_agent-native/jobs',
    job,
    { origin: EVIL, 'content-type': 'application/json' },
  ],
  ['POST /jobs, no Origin, text/plain', 'POST', '/_agent-native/jobs', job, { 'content-type': 'text/plain' }],
  [
    'POST /jobs, foreign Origin, text/plain',
    'POST',
    '/_agent-native/jobs',
    job,
    { origin: EVIL, 'content-type': 'text/plain' },
  ],
  [
    'POST /jobs, cross-site fetch metadata',
    'POST',
    '/_agent-native/jobs',
    job,
    { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
  ],
  [
    'POST /jobs, own Origin but a form body',
    'POST',
    '/_agent-native/jobs',
    `x=${encodeURIComponent(job)}`,
    { origin: '', 'content-type': 'application/x-www-form-urlencoded' },
  ],
  [
    'POST /jobs, own Origin but text/plain',
    'POST',
    '/_agent-native/jobs',
    job,
    { origin: '', 'content-type': 'text/plain' },
  ],
  [
    'PUT job file, foreign Origin',
    'PUT',
    '/_agent-native/resources/personal/jobs/existing.md',
    jobFile,
    { origin: EVIL, 'content-type': 'text/plain' },
  ],
  [
    'PUT job file, no Origin',
    'PUT',
    '/_agent-native/resources/personal/jobs/existing.md',
    jobFile,
    { 'content-type': 'text/plain' },
  ],
  [
    'PUT job file, own Origin, form body',
    'PUT',
    '/_agent-native/resources/personal/jobs/existing.md',
    jobFile,
    { origin: '', 'content-type': 'application/x-www-form-urlencoded' },
  ],
  [
    'PUT /model-keys, foreign Origin',
    'PUT',
    '/_agent-native/model-keys',
    key,
    { origin: EVIL, 'content-type': 'text/plain' },
  ],
  [
    'PUT /model-keys, no Origin, JSON',
    'PUT',
    '/_agent-native/model-keys',
    key,
    { 'content-type': 'application/json' },
  ],
  [
    'PATCH /jobs/:id from a sibling origin',
    'PATCH',
    '/_agent-native/jobs/x',
    '{"enabled":false}',
    { origin: 'http://127.0.0.1:1', 'content-type': 'application/json' },
  ],
  [
    'sign-up from a foreign page',
    'POST',
    '/_agent-native/auth/sign-up/email',
    JSON.stringify({ name: 'X', email: 'x@evil.example', password: 'password1234' }),
    { origin: EVIL, 'content-type': 'application/json' },
  ],
  [
    'sign-out from a foreign page',
    'POST',
    '/_agent-native/auth/sign-out',
    '{}',
    { origin: EVIL, 'content-type': 'text/plain' },
  ],
  [
    'a page action from a foreign page',
    'POST',
    '/jobs/new',
    'intent=create&name=forged',
    { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
  ],
])('%s', (_name, method, path, body, headers) => {
  it('answers 403 JSON and writes nothing', async () => {
    const sent = { ...headers } as Record<string, string>
    if (sent.origin === '') sent.origin = app.baseUrl
    const before = await snapshot()
    const res = await forged(method, path, body, sent)
    expect(res.status, res.body).toBe(403)
    expect(res.type).toContain('application/json')
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'forbidden' } })
    expect(await snapshot()).toEqual(before)
  })
})

describe('same-origin requests still work', () => {
  it('takes JSON with a matching Origin', async () => {
    const res = await forged('POST', '/_agent-native/jobs', job.replace('forged', 'ok-origin'), {
      origin: app.baseUrl,
      'content-type': 'application/json',
    })
    expect(res.status, res.body).toBe(201)
  })

  it('takes Sec-Fetch-Site: same-origin when a client sends no Origin', async () => {
    const res = await forged('POST', '/_agent-native/jobs', job.replace('forged', 'ok-fetch-site'), {
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json; charset=utf-8',
    })
    expect(res.status, res.body).toBe(201)
  })

  it('takes a text body for a resource', async () => {
    const res = await forged('PUT', '/_agent-native/resources/personal/notes/a.md', 'hello', {
      origin: app.baseUrl,
      'content-type': 'text/markdown',
    })
    expect(res.status, res.body).toBe(201)
  })

  it('needs no Origin to read', async () => {
    const res = await fetch(`${app.baseUrl}/_agent-native/jobs`, { headers: { cookie: victim.cookieHeader } })
    expect(res.status).toBe(200)
  })
})
