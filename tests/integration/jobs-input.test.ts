/**
 * Bad input gets a clear 4xx naming the field and changes nothing (invariant 7), for every jobs and
 * resources endpoint: each case snapshots the tables before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient, ApiResponse } from '#tests/support/api-client.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'

let app: TestApp
let team: Team
let jobId: string

beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
  const res = await team.creator.client.post(J, {
    name: 'existing',
    scope: 'shared',
    schedule: '0 7 * * *',
    instructions: 'Go.',
  })
  jobId = res.body.job.id
  await team.creator.client.put(`${R}/shared/notes/existing.md`, 'hello')
})
afterAll(() => app?.close())

const valid = { name: 'new-job', schedule: '0 7 * * *', instructions: 'Go.' }
const jobFile = (frontmatter: string, body = 'Go.') => `---\n${frontmatter}\n---\n${body}\n`
const big = (bytes: number) => 'x'.repeat(bytes)

/** Sends raw bytes (the ApiClient only sends strings). */
async function sendRaw(client: ApiClient, method: string, path: string, body: BodyInit, type: string) {
  const res = await fetch(app.baseUrl + path, {
    method,
    headers: { cookie: client.cookieHeader, origin: app.baseUrl, 'content-type': type },
    body,
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers } as ApiResponse
}

type BadCase = [name: string, send: (c: ApiClient) => Promise<ApiResponse>, status: number, field?: string]

const post = (body: unknown) => (c: ApiClient) => c.post(J, body)
const patch = (body: unknown, headers?: Record<string, string>) => (c: ApiClient) =>
  c.patch(`${J}/${jobId}`, body, headers)
const putJob =
  (text: string, name = 'filed') =>
  (c: ApiClient) =>
    c.put(`${R}/shared/jobs/${name}.md`, text)
const putExistingJob = (text: string) => (c: ApiClient) => c.put(`${R}/shared/jobs/existing.md`, text)

const CASES: BadCase[] = [
  // POST /jobs: wrong types
  ['POST name not a string', post({ ...valid, name: 5 }), 400, 'name'],
  ['POST schedule not a string', post({ ...valid, schedule: 5 }), 400, 'schedule'],
  ['POST instructions not a string', post({ ...valid, instructions: ['Go'] }), 400, 'instructions'],
  ['POST enabled "yes"', post({ ...valid, enabled: 'yes' }), 400, 'enabled'],
  ['POST retries "3"', post({ ...valid, retries: '3' }), 400, 'retries'],
  ['POST retries 9', post({ ...valid, retries: 9 }), 400, 'retries'],
  ['POST timeoutMinutes 0', post({ ...valid, timeoutMinutes: 0 }), 400, 'timeoutMinutes'],
  ['POST scope "public"', post({ ...valid, scope: 'public' }), 400, 'scope'],
  ['POST runAs "robot"', post({ ...valid, runAs: 'robot' }), 400, 'runAs'],
  ['POST extra a list', post({ ...valid, extra: [1] }), 400, 'extra'],
  ['POST extra reserved key', post({ ...valid, extra: { schedule: 'x' } }), 400, 'extra.schedule'],
  // missing fields
  ['POST without name', post({ schedule: '0 7 * * *', instructions: 'Go.' }), 400, 'name'],
  ['POST without schedule', post({ name: 'x', instructions: 'Go.' }), 400, 'schedule'],
  ['POST without instructions', post({ name: 'x', schedule: '0 7 * * *' }), 400, 'instructions'],
  ['POST empty instructions', post({ ...valid, instructions: '   ' }), 400, 'instructions'],
  // unknown fields
  ['POST unknown field', post({ ...valid, colour: 'red' }), 400, 'colour'],
  ['POST id', post({ ...valid, id: 'job_mine' }), 400, 'id'],
  ['POST version', post({ ...valid, version: 7 }), 400, 'version'],
  ['POST nextRun (run state)', post({ ...valid, nextRun: '2030-01-01T00:00:00Z' }), 400, 'nextRun'],
  // bad cron, zone, name
  ['POST cron minute 61', post({ ...valid, schedule: '61 * * * *' }), 400, 'schedule'],
  ['POST cron 6 fields', post({ ...valid, schedule: '0 0 7 * * *' }), 400, 'schedule'],
  ['POST cron gibberish', post({ ...valid, schedule: 'every day' }), 400, 'schedule'],
  ['POST zone unknown', post({ ...valid, timezone: 'Mars/Olympus' }), 400, 'timezone'],
  ['POST zone offset', post({ ...valid, timezone: '+02:00' }), 400, 'timezone'],
  ['POST name with spaces', post({ ...valid, name: 'Daily Report' }), 400, 'name'],
  ['POST name leading dash', post({ ...valid, name: '-daily' }), 400, 'name'],
  ['POST name too long', post({ ...valid, name: big(64) }), 400, 'name'],
  ['POST NUL in instructions', post({ ...valid, instructions: 'a\u0000b' }), 400, 'instructions'],
  ['POST NUL in extra', post({ ...valid, extra: { note: 'a\u0000b' } }), 400, 'extra.note'],
  // bodies
  [
    'POST invalid JSON',
    (c) => c.request('POST', J, '{"name": ', { 'content-type': 'application/json' }),
    400,
    'body',
  ],
  ['POST JSON array', post([valid]), 400, 'body'],
  [
    'POST JSON string',
    (c) => c.request('POST', J, '"job"', { 'content-type': 'application/json' }),
    400,
    'body',
  ],
  ['POST empty body', (c) => c.request('POST', J, '', { 'content-type': 'application/json' }), 400, 'body'],
  ['POST body over 256 KiB', post({ ...valid, instructions: big(300 * 1024) }), 413],
  ['POST instructions over 60000', post({ ...valid, instructions: big(60_001) }), 400, 'instructions'],

  // PATCH /jobs/:id
  ['PATCH nothing', patch({}), 400],
  ['PATCH schedule a number', patch({ schedule: 7 }), 400, 'schedule'],
  ['PATCH enabled "false"', patch({ enabled: 'false' }), 400, 'enabled'],
  ['PATCH bad cron', patch({ schedule: '* * * *' }), 400, 'schedule'],
  ['PATCH bad zone', patch({ timezone: 'Europe/Atlantis' }), 400, 'timezone'],
  ['PATCH rename (not a PATCH field)', patch({ name: 'renamed' }), 400, 'name'],
  ['PATCH scope (not a PATCH field)', patch({ scope: 'personal' }), 400, 'scope'],
  ['PATCH createdBy', patch({ createdBy: 'someone' }), 400, 'createdBy'],
  ['PATCH lastStatus (run state)', patch({ lastStatus: 'success' }), 400, 'lastStatus'],
  [
    'PATCH invalid JSON',
    (c) => c.request('PATCH', `${J}/${jobId}`, '{', { 'content-type': 'application/json' }),
    400,
    'body',
  ],
  ['PATCH body over 256 KiB', patch({ instructions: big(300 * 1024) }), 413],
  ['PATCH bad If-Match', patch({ enabled: false }, { 'if-match': 'yesterday' }), 400, 'If-Match'],
  ['PATCH stale If-Match', patch({ enabled: false }, { 'if-match': '"99"' }), 409, 'version'],
  ['PATCH unknown id', (c) => c.patch(`${J}/job_nope`, { enabled: false }), 404],
  [
    'DELETE bad If-Match',
    (c) => c.request('DELETE', `${J}/${jobId}`, undefined, { 'if-match': 'x' }),
    400,
    'If-Match',
  ],
  [
    'DELETE stale If-Match',
    (c) => c.request('DELETE', `${J}/${jobId}`, undefined, { 'if-match': '"99"' }),
    409,
  ],

  // GET /jobs query
  ['GET scope=bogus', (c) => c.get(`${J}?scope=bogus`), 400, 'scope'],
  ['GET status=broken', (c) => c.get(`${J}?status=broken`), 400, 'status'],
  ['GET q over 200 characters', (c) => c.get(`${J}?q=${big(201)}`), 400, 'q'],

  // PUT /resources/<scope>/jobs/<name>.md
  ['file broken YAML', putJob('---\nschedule: "0 7 * * *\ntimezone: [\n---\nGo.\n'), 400, 'frontmatter'],
  ['file unquoted */5 (a YAML alias)', putJob(jobFile('schedule: */5 * * * *')), 400, 'frontmatter'],
  ['file without frontmatter', putJob('Just do it.'), 400, 'schedule'],
  ['file without schedule', putJob(jobFile('timezone: UTC')), 400, 'schedule'],
  ['file bad cron', putJob(jobFile('schedule: "0 25 * * *"')), 400, 'schedule'],
  ['file bad zone', putJob(jobFile('schedule: "0 7 * * *"\ntimezone: Nowhere/Land')), 400, 'timezone'],
  ['file enabled "sometimes"', putJob(jobFile('schedule: "0 7 * * *"\nenabled: sometimes')), 400, 'enabled'],
  ['file empty body', putJob(jobFile('schedule: "0 7 * * *"', '')), 400, 'instructions'],
  ['file bad name', putJob(jobFile('schedule: "0 7 * * *"'), 'Bad_Name'), 400, 'name'],
  ['file JavaScript frontmatter', putJob('---js\n{ schedule: "0 7 * * *" }\n---\nGo.\n'), 400, 'frontmatter'],
  ['file over 256 KiB', putJob(jobFile('schedule: "0 7 * * *"', big(257 * 1024))), 413],
  [
    'file over 256 KiB on an existing job',
    putExistingJob(jobFile('schedule: "0 7 * * *"', big(257 * 1024))),
    413,
  ],
  ['file bad cron on an existing job', putExistingJob(jobFile('schedule: "0 7 * *"')), 400, 'schedule'],
  [
    'file createdBy someone else',
    putJob(jobFile('schedule: "0 7 * * *"\ncreatedBy: eve@example.com')),
    400,
    'createdBy',
  ],
  [
    'file not UTF-8',
    (c) =>
      sendRaw(c, 'PUT', `${R}/shared/jobs/raw.md`, new Blob([new Uint8Array([0xc3, 0x28])]), 'text/plain'),
    400,
    'body',
  ],
  [
    'file If-Match on a missing job',
    (c) => c.put(`${R}/shared/jobs/ghost.md`, jobFile('schedule: "0 7 * * *"'), { 'if-match': '1' }),
    404,
  ],
  [
    'file stale If-Match',
    (c) => c.put(`${R}/shared/jobs/existing.md`, jobFile('schedule: "0 8 * * *"'), { 'if-match': '"42"' }),
    409,
    'version',
  ],

  // PUT /resources/<scope>/<path>
  ['resource over 1 MiB', (c) => c.put(`${R}/shared/notes/big.md`, big(1024 * 1024 + 1)), 413],
  ['resource NUL byte', (c) => c.put(`${R}/shared/notes/bin.txt`, 'a\u0000b'), 400, 'content'],
  // URLs normalise a literal or %2E%2E segment away before sending; an encoded slash keeps it.
  ['resource path with ..', (c) => c.put(`${R}/shared/notes%2F..%2Fx.md`, 'x'), 400, 'path'],
  ['resource path with backslash', (c) => c.put(`${R}/shared/notes%5Cx.md`, 'x'), 400, 'path'],
  ['resource path with empty segment', (c) => c.put(`${R}/shared/notes//x.md`, 'x'), 400, 'path'],
  ['resource path with a space', (c) => c.put(`${R}/shared/my%20notes.md`, 'x'), 400, 'path'],
  ['resource path too long', (c) => c.put(`${R}/shared/${big(513)}`, 'x'), 400, 'path'],
  ['resource non-job file in jobs/', (c) => c.put(`${R}/shared/jobs/readme.txt`, 'x'), 400, 'path'],
  ['resource nested in jobs/', (c) => c.put(`${R}/shared/jobs/a/b.md`, 'x'), 400, 'path'],
  ['resource unknown scope', (c) => c.put(`${R}/public/notes.md`, 'x'), 400, 'scope'],
  [
    'resource stale If-Match',
    (c) => c.put(`${R}/shared/notes/existing.md`, 'x', { 'if-match': '"5"' }),
    409,
    'version',
  ],
  [
    'resource If-Match on a missing file',
    (c) => c.put(`${R}/shared/notes/none.md`, 'x', { 'if-match': '"1"' }),
    404,
  ],
  ['resource GET bad path', (c) => c.get(`${R}/shared/a//b`), 400, 'path'],
  ['resource DELETE bad path', (c) => c.delete(`${R}/personal/a%20b`), 400, 'path'],
  ['resource DELETE missing', (c) => c.delete(`${R}/personal/nothing-here.md`), 404],
  ['resources bad prefix', (c) => c.get(`${R}?prefix=../x`), 400, 'prefix'],

  // methods
  ['PUT /jobs', (c) => c.request('PUT', J, '{}', { 'content-type': 'application/json' }), 405],
  ['POST /jobs/:id', (c) => c.post(`${J}/${jobId}`, {}), 405],
  ['DELETE /jobs/:id/audit', (c) => c.delete(`${J}/${jobId}/audit`), 405],
  ['POST /resources', (c) => c.post(R, {}), 405],
  ['POST /resources/shared/x.md', (c) => c.post(`${R}/shared/x.md`, {}), 405],
]

describe('bad input: 4xx naming the field, database unchanged', () => {
  it.each(CASES)('%s → %i %s', async (_name, send, status, field) => {
    const before = await snapshotTables()
    const res = await send(team.creator.client)
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body.error.code).toBeTruthy()
    expect(res.body.error.message).toBeTruthy()
    if (field) {
      expect(res.body.error.field).toBe(field)
      // Body and YAML errors name the line instead; every other message starts with its field.
      if (status === 400 && !['body', 'frontmatter'].includes(field)) {
        expect(res.body.error.message).toContain(field.split('.')[0])
      }
    }
    expect(await snapshotTables()).toEqual(before)
  })

  it('every error still leaves the existing job and file as they were', async () => {
    const job = await team.creator.client.get(`${J}/${jobId}`)
    expect(job.body.job).toMatchObject({
      version: 1,
      schedule: '0 7 * * *',
      enabled: true,
      instructions: 'Go.',
    })
    const note = await team.creator.client.get(`${R}/shared/notes/existing.md`)
    expect(note.body.resource).toMatchObject({ version: 1, content: 'hello' })
  })
})

describe('the schedule preview answers 200 even when the schedule is wrong', () => {
  it.each([
    ['schedule=61+*+*+*+*', { valid: false, field: 'schedule' }],
    ['schedule=', { valid: false, field: 'schedule' }],
    ['schedule=0+7+*+*+*&timezone=Mars/Olympus', { valid: false, field: 'timezone' }],
    [
      'schedule=0+7+*+*+1-5&timezone=Europe/Berlin',
      { valid: true, description: 'Every weekday at 07:00 (Europe/Berlin)' },
    ],
  ])('%s', async (query, expected) => {
    const res = await team.member.client.get(`/_agent-native/schedule/preview?${query}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject(expected)
    if (expected.valid) expect(res.body.nextRuns).toHaveLength(5)
  })

  it('needs a session', async () => {
    expect((await app.client().get('/_agent-native/schedule/preview?schedule=@daily')).status).toBe(401)
  })
})
