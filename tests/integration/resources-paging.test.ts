/**
 * `GET /resources` pages: `limit` (default 50, 1–200), an opaque `cursor` from `nextCursor`, an
 * optional `scope`, and per-half totals; personal entries first, then shared, each by path, job
 * files among plain files, and every entry exactly once across the pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const R = '/_agent-native/resources'
let app: TestApp
let alice: ApiClient
const personal = ['a.md', 'jobs/p-report.md', 'notes/b.md', 'notes/c.md', 'z.txt']
const shared = ['jobs/s-digest.md', 'team/plan.md', 'team/roster.csv']

beforeAll(async () => {
  app = await startTestApp()
  alice = app.client()
  await alice.signUp('Alice Files', 'alice-files@example.com')
  const job = (name: string, scope: string) =>
    alice.post('/_agent-native/jobs', { name, schedule: '0 7 * * *', instructions: 'Report.', scope })
  expect((await job('p-report', 'personal')).status).toBe(201)
  expect((await job('s-digest', 'shared')).status).toBe(201)
  for (const path of personal.filter((p) => !p.startsWith('jobs/')))
    expect((await alice.put(`${R}/personal/${path}`, `# ${path}\n`)).status).toBe(201)
  for (const path of shared.filter((p) => !p.startsWith('jobs/')))
    expect((await alice.put(`${R}/shared/${path}`, `# ${path}\n`)).status).toBe(201)
}, 60_000)
afterAll(() => app?.close())

type Entry = { path: string; kind: string; size: number }
type Page = {
  personal: Entry[]
  shared: Entry[]
  total: { personal: number; shared: number }
  nextCursor: string | null
}

async function walk(query: string): Promise<Page[]> {
  const pages: Page[] = []
  let cursor = ''
  do {
    const res = await alice.get<Page>(`${R}?${query}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    pages.push(res.body)
    cursor = res.body.nextCursor ?? ''
  } while (cursor && pages.length < 20)
  return pages
}

describe('resources paging', () => {
  it('pages personal then shared, by path, each entry once, with totals', async () => {
    const pages = await walk('limit=3')
    expect(pages.map((p) => p.personal.length + p.shared.length)).toEqual([3, 3, 2])
    expect(pages.at(-1)!.nextCursor).toBeNull()
    expect(pages.flatMap((p) => p.personal.map((e) => e.path))).toEqual(personal)
    expect(pages.flatMap((p) => p.shared.map((e) => e.path))).toEqual(shared)
    for (const page of pages) expect(page.total).toEqual({ personal: 5, shared: 3 })
    const jobFile = pages.flatMap((p) => p.personal).find((e) => e.path === 'jobs/p-report.md')!
    expect(jobFile.kind).toBe('job')
    expect(jobFile.size).toBeGreaterThan(0)
  })

  it('defaults to one page of up to 50 holding everything here; scope and prefix narrow it', async () => {
    const all = await alice.get<Page>(R)
    expect(all.body.nextCursor).toBeNull()
    expect(all.body.personal.map((e) => e.path)).toEqual(personal)
    const sharedOnly = await walk('scope=shared&limit=2')
    expect(sharedOnly.flatMap((p) => [...p.personal, ...p.shared].map((e) => e.path))).toEqual(shared)
    const notes = await alice.get<Page>(`${R}?prefix=notes/`)
    expect(notes.body.personal.map((e) => e.path)).toEqual(['notes/b.md', 'notes/c.md'])
    expect(notes.body.total).toEqual({ personal: 2, shared: 0 })
  })

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=x', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    [`cursor=${Buffer.from(JSON.stringify(['elsewhere', 'a.md'])).toString('base64url')}`, 'cursor'],
    ['scope=everyone', 'scope'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await alice.get(`${R}?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe(field)
  })
})
