/**
 * The attack: any member creates 16 jobs on 29 February (`0 *\/23 29 2 *`: 00:00 and 23:00, two
 * hours, so an interval job) each in its own zone, and opens the Calendar for a month in 2131. Each
 * `nextRuns` call of the calendar asked for 25 runs, about 52 years of them, and every zone-year on
 * the way was new to the server (365 `Intl` reads for its offsets): 160–200 ms a call, 16 calls a
 * turn of the event loop. The page took 3.1 s and a health request waited 2.8 s.
 *
 * The safe outcome: the page answers and health answers throughout, because no run past the window
 * is computed and the calendar lets the loop go by time (decision 0513).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { HANG_GUARD_MS, healthWhile, spawnTarget, stopTarget } from '#tests/support/health-probe.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'

const JOBS = 16
// A zone each, so no job reuses another's cached years.
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Europe/Paris',
  'Europe/London',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Australia/Sydney',
  'Asia/Tokyo',
  'Africa/Cairo',
  'America/Sao_Paulo',
  'Europe/Madrid',
  'Asia/Tehran',
  'Pacific/Auckland',
]

let server: SpawnedServer
let mallory: ApiClient

beforeAll(async () => {
  ;({ server, attacker: mallory } = await spawnTarget(
    { name: 'Mallory Leap', email: 'mallory-leap@example.com' },
    'source',
  ))
  for (let i = 0; i < JOBS; i++) {
    const job = await mallory.post('/_agent-native/jobs', {
      name: `leap-${i}`,
      schedule: '0 */23 29 2 *',
      timezone: ZONES[i % ZONES.length],
      instructions: 'Go.',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
  }
  // Warm the route module (a development server loads it on the first request).
  const page = await fetch(`${server.baseUrl}/calendar?job=job_none`, {
    headers: { cookie: mallory.cookieHeader },
  })
  expect(page.status).toBe(200)
}, 300_000)
afterAll(() => stopTarget(server))

describe('the calendar page over leap-day schedules', () => {
  it(`of ${JOBS} leap-day jobs, a month far ahead, while health answers`, async () => {
    const url = `${server.baseUrl}/calendar?start=2131-03-03&days=30&view=week`
    const page = fetch(url, { headers: { cookie: mallory.cookieHeader } }).then(async (res) => ({
      status: res.status,
      html: await res.text(),
    }))
    expect(await healthWhile(server.baseUrl, page, HANG_GUARD_MS)).toBeGreaterThan(0)
    expect((await page).status).toBe(200)
  }, 120_000)
})
