/**
 * Data for the web benchmark, written through the real API: one person per job count, each in
 * their own workspace, with jobs that look like real ones (varied schedules and zones, a
 * paragraph of instructions, half of them shared).
 */
import { ApiClient } from '../../tests/support/api-client.ts'

const SCHEDULES = ['0 7 * * 1-5', '30 9 * * *', '0 */6 * * *', '15 8 1 * *', '0 18 * * 5', '45 6 * * 1']
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney']
const INSTRUCTIONS =
  'Read yesterday’s sign-ups and orders from the shared reports folder, compare them with the ' +
  'same weekday last week, and write a short summary: the totals, the three biggest changes and ' +
  'anything that looks like an outage or a data problem. Keep it under two hundred words, use a ' +
  'table for the figures, and link the files you read. If nothing changed, say so in one line. '

export type SeededPerson = { client: ApiClient; cookie: string; jobIds: string[] }

export async function seedPerson(baseUrl: string, tag: string, jobCount: number): Promise<SeededPerson> {
  const client = new ApiClient(baseUrl)
  await client.signUp(`Bench ${tag}`, `bench-${tag}-${Date.now()}@example.com`)
  const jobIds: string[] = []
  let next = 0
  // A few writers at once: the seeding is not what is measured.
  const writer = async () => {
    while (next < jobCount) {
      const i = next++
      const res = await client.post('/_agent-native/jobs', {
        name: `job-${String(i).padStart(4, '0')}`,
        schedule: SCHEDULES[i % SCHEDULES.length],
        timezone: ZONES[i % ZONES.length],
        scope: i % 2 === 0 ? 'personal' : 'shared',
        instructions: `${INSTRUCTIONS.repeat(1 + (i % 3))}(job ${i})`,
      })
      if (res.status !== 201) throw new Error(`seeding job ${i}: ${res.status} ${JSON.stringify(res.body)}`)
      jobIds.push(res.body.job.id as string)
    }
  }
  await Promise.all(Array.from({ length: 6 }, writer))
  return { client, cookie: client.cookieHeader, jobIds }
}
