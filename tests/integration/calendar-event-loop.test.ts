/**
 * A member's calendar, as a feed and as a page, with 200 hourly jobs (an organisation's default
 * limit): 4,800 fires a day.
 *
 * The calendar feed is read with a token that a calendar app polls, and every read worked out and
 * wrote every upcoming fire of every job the token's owner sees: with 200 hourly jobs (an
 * organisation's default limit) 20,000 events, 8 MB, about 1.4 s of the server's one event loop a
 * read. The feed now carries the earliest 1,000 fires.
 *
 * The page showed a month of them, 20,000 entries, worked out in one go (a `start` the member picks
 * misses the memo) and rendered in one go. It now lists 50 a day and counts the rest, and works
 * the fires out in slices.
 *
 * The server runs in its own process and is asked for health again and again while the feed or
 * the page is made; every answer must come within the hang guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ENTRIES_PER_DAY } from '#server/calendar/calendar.ts'
import { FEED_MAX_EVENTS } from '#server/calendar/feed.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { HANG_GUARD_MS, healthWhile, spawnTarget } from '#tests/support/health-probe.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'

/** The default ORG_MAX_ENABLED_JOBS. */
const JOBS = 200
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata']

let server: SpawnedServer
let mallory: ApiClient

beforeAll(async () => {
  ;({ server, attacker: mallory } = await spawnTarget(
    { name: 'Mallory Calendar', email: 'mallory-calendar@example.com' },
    'source',
  ))
  // Hourly, at a different minute or zone each, so no two jobs share computed fires.
  for (let i = 0; i < JOBS; i++) {
    const job = await mallory.post('/_agent-native/jobs', {
      name: `hourly-${i}`,
      schedule: `${i % 60} * * * *`,
      timezone: ZONES[Math.floor(i / 60)],
      instructions: 'Go.',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
  }
  // The development server loads a route's module on its first request: not what is probed.
  const unknown = await fetch(`${server.baseUrl}/_agent-native/calendar.ics?token=cwc_unknown`)
  expect(unknown.status).toBe(401)
  const page = await fetch(`${server.baseUrl}/calendar?job=job_none`, {
    headers: { cookie: mallory.cookieHeader },
  })
  expect(page.status).toBe(200)
}, 300_000)
afterAll(() => server?.stop())

describe('the calendar feed', () => {
  it(`of ${JOBS} hourly jobs carries the earliest ${FEED_MAX_EVENTS} fires while health answers`, async () => {
    const made = await mallory.post('/_agent-native/calendar/tokens')
    expect(made.status).toBe(201)
    const url = `${server.baseUrl}/_agent-native/calendar.ics?token=${encodeURIComponent(made.body.token)}`
    const read = fetch(url).then(async (res) => ({ status: res.status, text: await res.text() }))
    expect(await healthWhile(server.baseUrl, read, HANG_GUARD_MS)).toBeGreaterThan(0)
    const { status, text } = await read
    expect(status).toBe(200)
    const starts = [...text.matchAll(/^DTSTART:(\d{8}T\d{6}Z)$/gm)].map((m) => m[1]!)
    expect(starts).toHaveLength(FEED_MAX_EVENTS)
    // The earliest ones: in time order, and every job's first fire (within its first hour) is there.
    expect([...starts].sort()).toEqual(starts)
    expect(new Set([...text.matchAll(/^SUMMARY:(.+)$/gm)].map((m) => m[1])).size).toBe(JOBS)
  }, 120_000)
})

describe('the calendar page', () => {
  it(`shows a month of ${JOBS} hourly jobs, ${MAX_ENTRIES_PER_DAY} entries a day and the rest counted, while health answers`, async () => {
    // A month no one has asked for yet: nothing of it is in the memo.
    const url = `${server.baseUrl}/calendar?start=2031-03-03&days=30&view=week`
    const page = fetch(url, { headers: { cookie: mallory.cookieHeader } }).then(async (res) => ({
      status: res.status,
      html: await res.text(),
    }))
    expect(await healthWhile(server.baseUrl, page, HANG_GUARD_MS)).toBeGreaterThan(0)
    const { status, html } = await page
    expect(status).toBe(200)
    // 4,800 fires a day: 50 listed, 4,750 counted (the days the clocks change have more or fewer).
    expect(html).toContain('+4,750 more')
  }, 120_000)
})
