/**
 * Transport: conditional reads (ETag + If-None-Match → 304) on job and list reads, compression
 * of JSON and HTML above 1 KiB, and small answers left alone.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getDbHandle } from '#server/db/client.ts'
import { queryRows } from '#server/db/sql.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
let app: TestApp
let alice: ApiClient
let job: { id: string; version: number }

beforeAll(async () => {
  app = await startTestApp()
  alice = app.client()
  await alice.signUp('Alice Transport', 'alice-transport@example.com')
  for (let i = 0; i < 12; i++) {
    const res = await alice.post(J, {
      name: `job-${i}`,
      schedule: '0 7 * * 1-5',
      instructions: `Summarise yesterday's sign-ups for region ${i}, with a table of the figures.`,
    })
    expect(res.status).toBe(201)
    job = res.body.job
  }
}, 60_000)
afterAll(() => app?.close())

/** A raw fetch with the session, so headers and bodies are seen as sent. */
const raw = (path: string, headers: Record<string, string> = {}) =>
  fetch(app.baseUrl + path, { headers: { cookie: alice.cookieHeader, ...headers } })

describe('conditional reads', () => {
  it('tags the jobs list and answers 304 while it is unchanged', async () => {
    const first = await raw(J)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"/)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')

    const again = await raw(J, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')

    expect((await alice.patch(`${J}/${job.id}`, { retries: 2 })).status).toBe(200)
    const changed = await raw(J, { 'if-none-match': etag })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  it('tags a job with its version first, usable as If-Match, and answers 304 while unchanged', async () => {
    const first = await raw(`${J}/${job.id}`)
    const etag = first.headers.get('etag')!
    const { job: current } = await first.json()
    expect(etag).toMatch(new RegExp(`^"${current.version}\\.[\\w-]+"$`))
    expect((await raw(`${J}/${job.id}`, { 'if-none-match': etag })).status).toBe(304)

    // Run state (written by the scheduler) changes the body without a version bump: so does the tag.
    await queryRows(
      getDbHandle().db,
      sql`update jobs set last_run_at = now(), last_status = 'ok' where id = ${job.id}`,
    )
    const afterRun = await raw(`${J}/${job.id}`, { 'if-none-match': etag })
    expect(afterRun.status).toBe(200)
    expect(afterRun.headers.get('etag')).toMatch(new RegExp(`^"${current.version}\\.`))

    const patched = await alice.patch(`${J}/${job.id}`, { retries: 1 }, { 'if-match': etag })
    expect(patched.status).toBe(200)
    const stale = await alice.patch(`${J}/${job.id}`, { retries: 0 }, { 'if-match': etag })
    expect(stale.status).toBe(409)
  })
})

describe('compression', () => {
  it('compresses JSON over 1 KiB for clients that accept it, and says so', async () => {
    const res = await raw(J, { 'accept-encoding': 'gzip' })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
    expect((await res.json()).jobs.length).toBe(12)
    const br = await raw(J, { 'accept-encoding': 'br' })
    expect(br.headers.get('content-encoding')).toBe('br')
  })

  it('leaves small answers and clients without Accept-Encoding alone', async () => {
    const health = await raw('/_agent-native/health', { 'accept-encoding': 'gzip, br' })
    expect(health.headers.get('content-encoding')).toBeNull()
    const plain = await raw(J, { 'accept-encoding': 'identity' })
    expect(plain.headers.get('content-encoding')).toBeNull()
  })

  it('compresses pages', async () => {
    const res = await raw('/jobs', { 'accept-encoding': 'gzip' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    expect(res.headers.get('content-encoding')).toBe('gzip')
  })
})
