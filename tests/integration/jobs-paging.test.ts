/**
 * `GET /jobs` pages: `limit` (default 50, 1–200), an opaque `cursor` from `nextCursor`, and the
 * `total` of matching jobs; sorts by name, next run or last run in either direction, with jobs
 * that have no such time last; list rows carry an instructions preview, the job itself all of it.
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
let bob: ApiClient
const ids: string[] = []

beforeAll(async () => {
  app = await startTestApp()
  alice = app.client()
  await alice.signUp('Alice Pager', 'alice-pager@example.com')
  bob = app.client()
  await bob.signUp('Bob Elsewhere', 'bob-elsewhere@example.com')
  // 55 jobs: more than one default page. Some paused (no next run), varied schedules.
  for (let batch = 0; batch < 55; batch += 11) {
    const created = await Promise.all(
      Array.from({ length: 11 }, (_, k) => {
        const i = batch + k
        return alice.post(J, {
          name: `job-${String(i).padStart(2, '0')}`,
          schedule: `${i % 60} ${i % 24} * * *`,
          instructions: i === 3 ? `Long. ${'x'.repeat(500)}` : `Job ${i}.`,
          enabled: i % 5 !== 0,
        })
      }),
    )
    for (const res of created) {
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      ids.push(res.body.job.id)
    }
  }
  await bob.post(J, { name: 'not-alices', schedule: '0 7 * * *', instructions: 'Hidden from Alice.' })
  // Last-run times with microseconds (as Postgres stores now()), two of them equal, some never.
  await queryRows(
    getDbHandle().db,
    sql`
    update jobs set last_run_at = timestamptz '2026-11-30 10:00:00.123456+00' - (random() * interval '1 day')
    where name like 'job-%' and right(name, 1) in ('1', '2', '3', '4')`,
  )
  await queryRows(
    getDbHandle().db,
    sql`
    update jobs set last_run_at = timestamptz '2026-11-30 11:00:00.654321+00' where name in ('job-07', 'job-08')`,
  )
}, 120_000)
afterAll(() => app?.close())

/** Every job of a list, following nextCursor page by page. */
async function readAll(query: string, limit: number) {
  const names: string[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const res: { status: number; body: any } = await alice.get(
      `${J}?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.jobs.length).toBeLessThanOrEqual(limit)
    names.push(...res.body.jobs.map((j: { name: string }) => j.name))
    cursor = res.body.nextCursor
    pages++
  } while (cursor && pages < 100)
  return { names, pages }
}

describe('GET /jobs pages', () => {
  it('returns 50 by default, with the total and a cursor to the rest', async () => {
    const first = await alice.get(J)
    expect(first.status).toBe(200)
    expect(first.body.jobs).toHaveLength(50)
    expect(first.body.total).toBe(55)
    expect(first.body.jobs[0].name).toBe('job-00')
    const rest = await alice.get(`${J}?cursor=${encodeURIComponent(first.body.nextCursor)}`)
    expect(rest.body.jobs.map((j: { name: string }) => j.name)).toEqual([
      'job-50',
      'job-51',
      'job-52',
      'job-53',
      'job-54',
    ])
    expect(rest.body.nextCursor).toBeNull()
    expect(rest.body.total).toBe(55)
  })

  it.each([
    ['name', 'asc'],
    ['name', 'desc'],
    ['next', 'asc'],
    ['next', 'desc'],
    ['last', 'asc'],
    ['last', 'desc'],
  ])('pages through sort=%s dir=%s exactly as one big page orders it', async (sort, dir) => {
    const whole = await alice.get(`${J}?sort=${sort}&dir=${dir}&limit=200`)
    const expected = whole.body.jobs.map((j: { name: string }) => j.name)
    expect(expected).toHaveLength(55)
    const paged = await readAll(`sort=${sort}&dir=${dir}`, 4)
    expect(paged.names).toEqual(expected)
    expect(paged.pages).toBe(14)
    if (sort !== 'name') {
      // Jobs without that time come last, whichever the direction.
      const field = sort === 'next' ? 'nextRun' : 'lastRun'
      const times = whole.body.jobs.map((j: Record<string, string | null>) => j[field])
      const firstNull = times.indexOf(null)
      expect(firstNull).toBeGreaterThan(0)
      expect(times.slice(firstNull).every((t: string | null) => t === null)).toBe(true)
    }
  })

  it('counts only the jobs that match the filters', async () => {
    const res = await alice.get(`${J}?q=job-1&limit=3`)
    expect(res.body.total).toBe(10)
    expect(res.body.jobs).toHaveLength(3)
    const paused = await alice.get(`${J}?status=paused`)
    expect(paused.body.total).toBe(11)
  })

  it('shows a preview of long instructions in lists and all of them on the job', async () => {
    const res = await alice.get(`${J}?q=job-03`)
    const row = res.body.jobs[0]
    expect(row.instructions).toHaveLength(201)
    expect(row.instructions.endsWith('…')).toBe(true)
    const job = await alice.get(`${J}/${row.id}`)
    expect(job.body.job.instructions).toBe(`Long. ${'x'.repeat(500)}`)
    expect({ ...job.body.job, instructions: row.instructions }).toEqual(row)
  })

  it.each([
    ['0', 'must be at least 1'],
    ['201', 'must be at most 200'],
    ['ten', 'must be a whole number from 1 to 200'],
    ['1.5', 'must be a whole number from 1 to 200'],
  ])('answers 400 naming limit for limit=%s', async (limit, message) => {
    const res = await alice.get(`${J}?limit=${limit}`)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 'bad_request', field: 'limit', message: `limit: ${message}` })
  })

  it('answers 400 naming cursor for a cursor it did not make, or one from another sort', async () => {
    const garbage = await alice.get(`${J}?cursor=not-a-cursor`)
    expect(garbage.status).toBe(400)
    expect(garbage.body.error).toMatchObject({ code: 'bad_request', field: 'cursor' })
    const byName = await alice.get(`${J}?limit=2`)
    const mixed = await alice.get(`${J}?sort=next&cursor=${encodeURIComponent(byName.body.nextCursor)}`)
    expect(mixed.status).toBe(400)
    expect(mixed.body.error).toMatchObject({ field: 'cursor' })
  })
})

describe('audit and run history pages', () => {
  it('pages a job’s audit trail with limit, cursor and total', async () => {
    const id = ids[1]!
    for (let retries = 1; retries <= 4; retries++) {
      expect((await alice.patch(`${J}/${id}`, { retries })).status).toBe(200)
    }
    const seen: number[] = []
    let cursor: string | null = null
    do {
      const res: { status: number; body: any } = await alice.get(
        `${J}/${id}/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(res.status).toBe(200)
      expect(res.body.total).toBe(5)
      expect(res.body.entries.length).toBeLessThanOrEqual(2)
      seen.push(...res.body.entries.map((e: { id: number }) => e.id))
      cursor = res.body.nextCursor
    } while (cursor)
    expect(seen).toHaveLength(5)
    expect([...seen].sort((a, b) => b - a)).toEqual(seen)
    const bad = await alice.get(`${J}/${id}/audit?limit=500`)
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ field: 'limit' })
  })

  it('answers run history with a total and names bad limits and cursors', async () => {
    const id = ids[2]!
    const res = await alice.get(`${J}/${id}/runs`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ runs: [], total: 0, nextCursor: null })
    const badLimit = await alice.get(`${J}/${id}/runs?limit=0`)
    expect(badLimit.status).toBe(400)
    expect(badLimit.body.error).toMatchObject({ field: 'limit' })
    const badCursor = await alice.get(`${J}/${id}/runs?cursor=nonsense`)
    expect(badCursor.status).toBe(400)
    expect(badCursor.body.error).toMatchObject({ field: 'cursor' })
  })
})
