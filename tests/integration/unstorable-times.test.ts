/**
 * Attack: hand the server a time that JavaScript reads as a date but PostgreSQL cannot store (year
 * 0000, a year written with a sign such as `-000001` or `+275760`, or year 0001 that an offset moves
 * back into year 0), where it goes into a query: a forged jobs-list cursor, a run history's `before`
 * or `cursor`, the calendar's `start`. Each was a 500 (DateTimeParseError). Safe outcome: a 400
 * naming the field (for a page, below 500), nothing written; the first and last instants
 * PostgreSQL does hold (years 0001 and 9999, UTC) still work.
 */
import { describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { withTeamApp } from '#tests/support/team-app.ts'
import type { TeamPerson } from '#tests/support/team.ts'

const suite = withTeamApp()
const API = '/_agent-native'
/** A jobs-list cursor as the server makes them (base64url JSON of the sort key), with a forged time. */
const timeCursor = (time: string) => Buffer.from(JSON.stringify([time, 'a', 'b'])).toString('base64url')
const OUT_OF_RANGE = [
  '0000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
]
const EDGES = ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']

async function makeJob(name: string): Promise<string> {
  const created = await suite.team.member.client.post(`${API}/jobs`, {
    name,
    schedule: '0 7 * * *',
    instructions: 'Go.',
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.job.id
}

/** The calendar page as `person` sees it, with `query`. */
async function calendarPage(person: TeamPerson, query: string) {
  const res = await fetch(`${suite.app.baseUrl}/calendar?${query}`, {
    headers: { cookie: person.client.cookieHeader },
    redirect: 'manual',
  })
  return { status: res.status, body: await res.text() }
}

describe('GET /jobs with a forged time cursor (sort=next|last)', () => {
  it.each(OUT_OF_RANGE.flatMap((t) => [['next', t] as const, ['last', t] as const]))(
    'sort=%s, cursor time %s is a 400 naming cursor',
    async (sort, time) => {
      const before = await snapshotTables()
      const res = await suite.team.member.client.get(`${API}/jobs?sort=${sort}&cursor=${timeCursor(time)}`)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'bad_request', field: 'cursor' })
      expect(await snapshotTables()).toEqual(before)
    },
  )

  it('the jobs page given the same cursor answers below 500', async () => {
    const res = await suite.team.member.client.get(`/jobs?sort=next&cursor=${timeCursor(OUT_OF_RANGE[0]!)}`)
    expect(res.status).toBeLessThan(500)
  })

  it.each(EDGES)('a cursor time of %s still reads a page', async (time) => {
    const res = await suite.team.member.client.get(`${API}/jobs?sort=last&cursor=${timeCursor(time)}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })
})

describe('GET /jobs/:id/runs with a time PostgreSQL cannot hold', () => {
  it.each([
    ['before', '0000-01-01T00:00:00Z'],
    ['before', '0001-01-01T00:00:00+01:00'],
    ['before', '9999-12-31T23:00:00-01:00'],
    ['cursor', '0000-01-01T00:00:00Z'],
  ])('%s=%s is a 400 naming it', async (key, value) => {
    const jobId = await makeJob(`runs-${key}-${value.replace(/\W/g, '').slice(0, 20).toLowerCase()}`)
    const before = await snapshotTables()
    const res = await suite.team.member.client.get(
      `${API}/jobs/${jobId}/runs?${key}=${encodeURIComponent(value)}`,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'bad_request', field: key })
    expect(res.body.error.message).toMatch(/year 0001 to 9999/)
    expect(await snapshotTables()).toEqual(before)
  })

  it.each(EDGES)('before=%s still reads the history', async (time) => {
    const jobId = await makeJob(`runs-edge-${time.slice(0, 4)}`)
    const res = await suite.team.member.client.get(`${API}/jobs/${jobId}/runs?before=${time}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })
})

describe('the calendar page with days PostgreSQL cannot hold', () => {
  it.each(['start=0000-01-01', 'start=9999-12-25&days=7'])('%s is a 400 naming start', async (query) => {
    const page = await calendarPage(suite.team.member, query)
    expect(page.status, page.body.slice(0, 300)).toBe(400)
    expect(page.body).toContain('start')
  })

  it('start=0001-01-01 in a zone ahead of UTC (its first day begins in year 0) is a 400 naming start', async () => {
    const saved = await suite.team.creator.client.post('/settings/profile', 'timezone=Asia%2FTokyo', {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(saved.status).toBeLessThan(400)
    const page = await calendarPage(suite.team.creator, 'start=0001-01-01')
    expect(page.status, page.body.slice(0, 300)).toBe(400)
    expect(page.body).toContain('start')
  })

  it.each(['start=0001-01-01', 'start=9999-12-24&days=7'])(
    '%s in UTC still shows the calendar',
    async (query) => {
      const page = await calendarPage(suite.team.member, query)
      expect(page.status, page.body.slice(0, 300)).toBe(200)
    },
  )
})
