/**
 * Security review, finding 8: text PostgreSQL cannot store (U+0000, lone surrogates) in job
 * instructions, `extra`, files or chat answered 500 (chat also left an empty thread behind), as did
 * `GET /jobs?q=%00`; a path with broken %-encoding answered an HTML page. Each is now a 400 JSON
 * naming the field (every bad one at once), with nothing written.
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat } from '#tests/support/agent-chat.ts'
import type { ApiClient, ApiResponse } from '#tests/support/api-client.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'
let app: TestApp
let ana: ApiClient
let jobId: string
let threadId: string

beforeAll(async () => {
  app = await startTestApp({ env: { ANTHROPIC_API_KEY: 'sk-ant-test-unused' } })
  ana = app.client()
  await ana.signUp('Ana Lima', 'ana@example.com')
  const made = await ana.post(J, { name: 'existing', schedule: '0 7 * * *', instructions: 'Go.' })
  jobId = made.body.job.id
  // A chat thread of Ana's, stored as a turn stores it (no model is reachable here).
  threadId = 'thr_bad_text'
  await queryRows(
    app.server.db.db,
    sql`insert into agent_threads (id, org_id, user_id, kind)
        select ${threadId}, active_organization_id, user_id, 'chat' from session limit 1`,
  )
})
afterAll(() => app?.close())

async function everything() {
  const db = app.server.db
  return {
    ...(await snapshotTables(db)),
    threads: await queryRows(db.db, sql`select id from agent_threads order by id`),
    messages: await queryRows(db.db, sql`select id from agent_messages order by id`),
  }
}

const NUL = 'a\u0000b'
const LONE = 'a\ud800b'
// A jobs-list cursor (base64url JSON of [name, id]) whose name holds a NUL.
const NUL_CURSOR = Buffer.from(JSON.stringify([NUL, 'job_x'])).toString('base64url')
const job = (extra: Record<string, unknown>) => ({
  name: 'bad-text',
  schedule: '0 7 * * *',
  instructions: 'Go.',
  ...extra,
})
const chat = (text: string) => ({ message: { id: 'm1', role: 'user', parts: [{ type: 'text', text }] } })

describe.each<[string, () => Promise<ApiResponse>, number, string]>([
  ['instructions with NUL', () => ana.post(J, job({ instructions: NUL })), 400, 'instructions'],
  ['instructions with a lone surrogate', () => ana.post(J, job({ instructions: LONE })), 400, 'instructions'],
  ['extra with NUL', () => ana.post(J, job({ extra: { notes: NUL } })), 400, 'extra'],
  [
    'extra key with a lone surrogate',
    () => ana.patch(`${J}/${jobId}`, { extra: { [LONE]: 1 } }),
    400,
    'extra',
  ],
  [
    'PATCH instructions with NUL',
    () => ana.patch(`${J}/${jobId}`, { instructions: NUL }),
    400,
    'instructions',
  ],
  [
    'a job file with NUL',
    () => ana.put(`${R}/personal/jobs/filed.md`, `---\nschedule: '0 7 * * *'\n---\n${NUL}\n`),
    400,
    'instructions',
  ],
  ['a workspace file with NUL', () => ana.put(`${R}/personal/notes/a.md`, NUL), 400, 'content'],
  ['a search for NUL', () => ana.get(`${J}?q=%00`), 400, 'q'],
  ['a NUL in a job id', () => ana.get(`${J}/job_%00`), 400, 'path'],
  ['a NUL in a run id', () => ana.get('/_agent-native/runs/run_%00'), 400, 'path'],
  ['a forged page cursor holding NUL', () => ana.get(`${J}?cursor=${NUL_CURSOR}`), 400, 'cursor'],
  // Ids and query values reach SQL as text: a NUL there answered 500 (review of decision 0471).
  ['a NUL in a chat thread id', () => ana.get(`/_agent-native/agent/threads/a%00b`), 400, 'path'],
  [
    'a NUL in a chat page’s before',
    () => ana.get(`/_agent-native/agent/threads/${threadId}?before=a%00b`),
    400,
    'before',
  ],
  ['a NUL in a skill id', () => ana.get(`/_agent-native/skills/a%00b?limit=5`), 400, 'path'],
  ['a NUL in a skill id to delete', () => ana.delete(`/_agent-native/skills/a%00b`), 400, 'path'],
  [
    'a NUL in an environment id to delete',
    () => ana.delete(`/_agent-native/environments/a%00b`),
    400,
    'path',
  ],
  ['broken %-encoding in an API path', () => ana.get(`${J}/%E0%A4%A`), 400, 'path'],
  ['broken %-encoding in a resource path', () => ana.get(`${R}/personal/%zz`), 400, 'path'],
])('%s', (_name, send, status, field) => {
  it(`answers ${status} JSON naming ${field}, and writes nothing`, async () => {
    const before = await everything()
    const res = await send()
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toMatchObject({
      error: { code: 'bad_request', field: expect.stringMatching(new RegExp(`^${field}\\b`)) },
    })
    expect(await everything()).toEqual(before)
  })
})

describe.each([
  ['NUL', NUL],
  ['a lone surrogate', LONE],
])('a chat message with %s', (_name, text) => {
  it('answers 400 naming message, and leaves no empty thread behind', async () => {
    const before = await everything()
    const turn = await sendChat(ana, chat(text))
    expect(turn.status, turn.raw).toBe(400)
    expect(turn.error).toMatchObject({ code: 'bad_request', field: expect.stringMatching(/^message\b/) })
    expect(await everything()).toEqual(before)
  })
})

// Unstorable text was looked for only once the rest of the input passed its schema, and only the
// first string was named: a caller learnt of each bad field one request at a time (decision 0251).
const fieldsOf = (error: { field?: string; fields?: { field?: string }[] }) =>
  (error.fields ?? [error]).map((f) => f.field).sort()

describe.each<[string, () => Promise<ApiResponse>, string[]]>([
  [
    'a bad schedule beside instructions with a lone surrogate',
    () => ana.post(J, job({ name: 'lone-two', schedule: '0 25 * * *', instructions: LONE })),
    ['instructions', 'schedule'],
  ],
  [
    'two unstorable strings',
    () => ana.post(J, job({ name: 'lone-three', instructions: LONE, extra: { note: 'x\udc00y' } })),
    ['extra.note', 'instructions'],
  ],
])('%s', (_name, send, fields) => {
  it(`answers 400 naming ${fields.join(' and ')} at once, and writes nothing`, async () => {
    const before = await everything()
    const res = await send()
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(fieldsOf(res.body.error)).toEqual(fields)
    expect(await everything()).toEqual(before)
  })
})
