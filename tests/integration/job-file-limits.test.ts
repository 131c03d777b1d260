/**
 * Security review, finding 13: a job created over the API with 30,000 emoji rendered to a file over
 * the 64 KiB job-file limit, which could then not be saved back unchanged. The limits now agree:
 * whatever the API accepts renders to a file the file API accepts, and vice versa the API refuses
 * a job whose file would be too large.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources/personal/jobs'
let app: TestApp
let ana: ApiClient

beforeAll(async () => {
  app = await startTestApp()
  ana = app.client()
  await ana.signUp('Ana Lima', 'ana@example.com')
})
afterAll(() => app?.close())

it.each([
  ['30,000 emoji', '😀'.repeat(30_000)],
  ['60,000 three-byte characters', '漢'.repeat(60_000)],
])('a job with %s saves back unchanged as a file', async (_what, instructions) => {
  const made = await ana.post(J, {
    name: `big-${instructions.length}-${instructions.codePointAt(0)}`,
    schedule: '0 7 * * *',
    instructions,
  })
  expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201)
  const file = await ana.request('GET', `${R}/${made.body.job.name}.md`, undefined, {
    accept: 'text/markdown',
  })
  expect(file.status).toBe(200)
  const saved = await ana.put(`${R}/${made.body.job.name}.md`, file.body as string)
  expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200)
  expect((await ana.get(`${J}/${made.body.job.id}`)).body.job.instructions).toBe(instructions)
})

it('refuses over the API a job whose file would be over the job-file limit', async () => {
  // Under the JSON limit as JSON, but YAML writes each line of a block indented: twice the size.
  const extra = { notes: 'a\n'.repeat(80_000) }
  const res = await ana.post(J, { name: 'too-big-file', schedule: '0 7 * * *', instructions: 'Go.', extra })
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(413)
  expect(res.body.error).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/file/) })
  expect((await ana.get(`${J}?q=too-big-file`)).body.jobs).toEqual([])
})
