/**
 * A page read with a bad query value answers 4xx with the reason, never a 500: every value a page
 * loader reads from its address is the visitor's to type. Each case is the address a member could
 * open (or be sent), over real HTTP against the real server and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let owner: ApiClient

beforeAll(async () => {
  app = await startTestApp()
  owner = app.client()
  await owner.signUp('Paula Pages', 'paula@example.com')
  expect((await owner.put('/_agent-native/resources/personal/environments/work.md', 'Work.\n')).status).toBe(
    201,
  )
})

afterAll(() => app?.close())

const page = (path: string) =>
  fetch(`${app.baseUrl}${path}`, { headers: { cookie: owner.cookieHeader }, redirect: 'manual' })

describe('a page with a bad query value', () => {
  it.each([
    ['/settings/usage?days=abc', 'days'],
    ['/settings/usage?days=0', 'days'],
    ['/settings/usage?days=100000000000000000000', 'days'],
    ['/calendar?days=abc', 'days'],
    ['/calendar?view=month', 'view'],
    ['/calendar?start=not-a-date', 'start'],
  ])('%s is a 400 naming %s', async (path, field) => {
    const response = await page(path)
    const body = await response.text()
    expect(response.status, body.slice(0, 300)).toBe(400)
    expect(body).toContain(field)
  })

  // Values these pages read leniently: the page still renders (or says why in place), never a 500.
  it.each(
    [
      '/jobs?cursor=%00garbage&sort=nope&dir=sideways&filter=zz',
      '/jobs?q=' + 'x'.repeat(5000),
      '/environments/work?scope=nobody&file=..%2F..%2Fetc%2Fpasswd&cursor=%FF',
      '/environments/work?cursor=garbage',
      '/workspace?scope=weird&path=..%2F..%2Fetc%2Fpasswd',
      '/workspace?scope=personal&path=%00',
      '/jobs/job_doesnotexist',
      '/jobs/job_doesnotexist/runs/run_doesnotexist',
    ].map((path) => ({ path, shown: path.length > 90 ? `${path.slice(0, 90)}…` : path })),
  )('$shown answers below 500', async ({ path }) => {
    const response = await page(path)
    const body = await response.text()
    expect(response.status, body.slice(0, 300)).toBeLessThan(500)
  })
})
