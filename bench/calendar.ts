/**
 * `npm run bench:calendar`: how long the calendar takes for one person who sees 500 jobs, on a
 * real PostgreSQL (DATABASE_URL, else the machine's). Two mixes: "typical" (daily, weekday and
 * hourly cron, every-N and one-shot, 40 distinct schedules, so the per-(schedule, zone) memo
 * helps) and "worst" (500 distinct dense schedules in 5 zones, each hitting the 100-fire cap),
 * with two weeks of past runs (14,000 rows). The window starts two days ago (past and upcoming).
 * Prints the first (cold: nothing memoised) load and p50/p95 of the next ones (fires memoised
 * within the hour) of loadCalendar for 7 and 30 days.
 */
import './lib/quiet.ts'
import { callerFrom } from '../server/access/caller.ts'
import { loadCalendar } from '../server/calendar/calendar.ts'
import { nextRun } from '../server/cron/cron.ts'
import { openDatabase, setCurrentDatabase } from '../server/db/client.ts'
import { migrateDatabase } from '../server/db/migrate.ts'
import { jobRuns, jobs, member, organization, user } from '../server/db/schema/index.ts'
import { newId } from '../server/lib/ids.ts'
import { createDatabase, dropDatabase } from './lib/pg.ts'
import { ms, table } from './lib/stats.ts'

const JOBS = 500
const RUNS = 15
const NAME = 'bench_calendar'
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Sydney']

const typical = (i: number) =>
  [`0 ${i % 24} * * *`, `30 ${i % 12} * * 1-5`, `${i % 60} * * * *`, `every ${30 + (i % 5) * 15}m`][i % 4]!
const worst = (i: number) => `${i % 60} */${1 + (i % 4)} * * *`

const handle = await openDatabase({ url: await createDatabase(NAME), poolSize: 4 })
setCurrentDatabase(handle)
await migrateDatabase(handle)
const db = handle.db
const userId = newId('usr')
const orgId = newId('org')
await db
  .insert(user)
  .values({ id: userId, name: 'Bench', email: `${userId}@example.com`, timezone: 'Europe/Berlin' })
await db.insert(organization).values({ id: orgId, name: 'Bench', slug: orgId })
await db.insert(member).values({ id: newId('mem'), organizationId: orgId, userId, role: 'owner' })
const caller = callerFrom(
  { id: userId, email: 'bench@example.com', name: 'Bench', timezone: 'Europe/Berlin' },
  { orgId, orgName: 'Bench', role: 'owner' },
)

async function seed(schedule: (i: number) => string) {
  await db.delete(jobs)
  const now = new Date()
  const rows = Array.from({ length: JOBS }, (_, i) => {
    const timezone = ZONES[i % ZONES.length]!
    const s = schedule(i)
    return {
      id: newId('job'),
      orgId,
      createdBy: userId,
      name: `job-${i}`,
      scope: i % 2 ? ('shared' as const) : ('personal' as const),
      schedule: s,
      timezone,
      instructions: 'Bench.',
      nextRunAt: nextRun(s, { after: now, timezone }),
    }
  })
  for (let i = 0; i < rows.length; i += 100) await db.insert(jobs).values(rows.slice(i, i + 100))
  // Two weeks of history: ~28 runs per job.
  const runs = rows.flatMap((job, j) =>
    Array.from({ length: 28 }, (_, k) => ({
      id: newId('run'),
      jobId: job.id,
      orgId,
      trigger: 'schedule' as const,
      scheduledFor: new Date(now.getTime() - (k + 1) * 12 * 3_600_000 - j * 1000),
      status: k % 9 === 0 ? ('error' as const) : ('success' as const),
    })),
  )
  for (let i = 0; i < runs.length; i += 1000) await db.insert(jobRuns).values(runs.slice(i, i + 1000))
}

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const rows: string[][] = []
for (const [mix, schedule] of [
  ['typical', typical],
  ['worst', worst],
] as const) {
  await seed(schedule)
  for (const days of [7, 30]) {
    const start = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
    const samples: number[] = []
    let entries = 0
    for (let i = 0; i < RUNS + 1; i++) {
      const t = performance.now()
      const calendar = await loadCalendar(caller, { start, days: String(days) })
      samples.push(performance.now() - t)
      entries = calendar.days.reduce((n, d) => n + d.entries.length, 0)
    }
    const [cold, ...warm] = samples
    rows.push([
      mix,
      String(days),
      String(entries),
      ms(cold),
      ms(percentile(warm, 50)),
      ms(percentile(warm, 95)),
    ])
  }
}
console.log(table(['mix (500 jobs)', 'days', 'entries', 'cold', 'warm p50', 'warm p95'], rows))
await handle.close()
await dropDatabase(NAME)
process.exit(0)
