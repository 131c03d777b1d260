/**
 * `npm run bench:scheduler-burst`: Clockwork's burst alone, as bench:scheduler runs it (10,000
 * every-minute jobs due in the same minute, three instances as processes, concurrency 32, no-op
 * executor), in a minute and a half instead of a quarter of an hour: for trying a change to the
 * claim path and repeating it to see the spread. Prints claimed ("recorded") and started lateness,
 * and when each claim transaction began (ms after the slot: rows), which shows the batches.
 *
 * BURST_LOG_SLOW_MS=N logs the burst database's statements slower than N ms to PostgreSQL's log.
 */
import './lib/quiet.ts'
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { Fleet } from './lib/children.ts'
import { closeAdmin, describeMachine, dropDatabase } from './lib/pg.ts'
import { ms, summarize } from './lib/stats.ts'
import { insertJobs, notifySchedulers, prepareClockwork } from './systems/clockwork.ts'

const COUNT = 10_000
const DB = 'bench_cw_burst_alone'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))
const nextMinute = (after: number) => after - (after % 60_000) + 60_000

const machine = await describeMachine()
console.log(`machine: ${machine.cpu}, ${machine.memoryGb} GB, load ${machine.loadAverage}`)
const cw = await prepareClockwork(DB)
const slowMs = process.env.BURST_LOG_SLOW_MS
if (slowMs)
  await cw.handle.db.execute(
    sql.raw(`alter database ${DB} set log_min_duration_statement = ${Number(slowMs)}`),
  )
const fleet = new Fleet()
for (let i = 1; i <= 3; i++) {
  await fleet.start('clockwork', `cw-burst-${i}`, {
    BENCH_DB_URL: cw.url,
    BENCH_CONCURRENCY: '32',
    BENCH_POOL: '6',
  })
}
await fleet.ready()
const slot = nextMinute(Date.now() + 5_000)
await insertJobs(cw, {
  prefix: 'burst',
  count: COUNT,
  schedule: '* * * * *',
  timezone: 'Europe/Berlin',
  nextRunAt: sql`${new Date(slot).toISOString()}::timestamptz`,
})
await notifySchedulers(cw)
console.log(`${COUNT} jobs due at ${new Date(slot).toISOString()}`)
while (Date.now() < slot + 90_000 && fleet.fires.filter((f) => f.slot === slot).length < COUNT)
  await sleep(250)
await fleet.stop()
const fires = fleet.fires.filter((f) => f.slot === slot)
const line = (name: string, values: number[]) => {
  const s = summarize(values)
  return s ? `${name}: n ${s.n}, p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}` : `${name}: none`
}
console.log(`fired ${fires.length} of ${COUNT}`)
console.log(
  line(
    'claimed',
    fires.map((f) => f.recorded - f.slot),
  ),
)
console.log(
  line(
    'started',
    fires.map((f) => f.started - f.slot),
  ),
)
const batches = await queryRows<{ t: number; n: number }>(
  cw.handle.db,
  sql`select round(extract(epoch from created_at - scheduled_for) * 1000)::int as t, count(*)::int as n
      from job_runs where attempt = 1 group by 1 order by 1`,
)
console.log(
  `claim transactions began (ms after the slot: rows): ${batches.map((b) => `${b.t}: ${b.n}`).join(', ')}`,
)
await cw.handle.close()
await dropDatabase(DB)
await closeAdmin()
