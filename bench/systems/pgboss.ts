/** pg-boss's side of the benchmark: queues with cron schedules, and timing its cron pass. */
import { createRequire } from 'node:module'
import PgBoss from 'pg-boss'
import postgres from 'postgres'
import { createDatabase } from '../lib/pg.ts'

const requireFromBoss = createRequire(import.meta.resolve('pg-boss'))
const cronParser = requireFromBoss('cron-parser') as {
  parseExpression(cron: string, options: { tz?: string }): { prev(): { getTime(): number } }
}

/** A maintenance-free instance, just to create schema, queues and schedules. */
async function withBoss<T>(url: string, fn: (boss: PgBoss) => Promise<T>): Promise<T> {
  const boss = new PgBoss({ connectionString: url, max: 2, schedule: false, supervise: false })
  boss.on('error', (err) => console.error(`pg-boss setup: ${err.message}`))
  await boss.start()
  try {
    return await fn(boss)
  } finally {
    await boss.stop({ graceful: false, wait: true })
  }
}

/**
 * A database with one queue and schedule per name. pg-boss keys a schedule by its queue, and each
 * queue is a partition (a table with five indexes): created one at a time, since concurrent
 * creation deadlocks.
 */
export async function preparePgBoss(
  name: string,
  queues: string[],
  schedule: { cron: string; tz: string } | null,
): Promise<string> {
  const url = await createDatabase(name)
  await withBoss(url, async (boss) => {
    for (const queue of queues) {
      await boss.createQueue(queue)
      if (schedule) await boss.schedule(queue, schedule.cron, {}, { tz: schedule.tz })
    }
  })
  return url
}

/** pg-boss's own test for a schedule on each cron pass (src/timekeeper.js, shouldSendIt). */
function shouldSendIt(cron: string, tz: string): boolean {
  const prevTime = cronParser.parseExpression(cron, { tz }).prev()
  return (Date.now() - prevTime.getTime()) / 1000 < 60
}

/**
 * pg-boss's cron pass with `size` stored schedules: it loads every schedule (`getSchedules`) and
 * runs cron-parser on each. The queue foreign key is dropped so a million schedules need no
 * million partitions. Evaluation is timed on every row up to 1,000 and extrapolated from 1,000 rows
 * beyond that (cron-parser needs tens of ms per schedule here).
 */
export async function timeCronPass(sizes: number[]) {
  const url = await createDatabase('bench_boss_scale')
  await withBoss(url, async () => {})
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  await sql`alter table pgboss.schedule drop constraint if exists schedule_name_fkey`
  const results: { size: number; fetchMs: number; evaluateMs: number; extrapolated: boolean }[] = []
  let stored = 0
  await withBoss(url, async (boss) => {
    for (const size of sizes) {
      await sql`insert into pgboss.schedule (name, cron, timezone, data, options)
        select 's' || g, '0 7 * * *', 'Europe/Berlin', null, '{}'::jsonb from generate_series(${stored + 1}::int, ${size}::int) g`
      stored = size
      let t = performance.now()
      const schedules = (await boss.getSchedules()) as unknown as { cron: string; timezone: string }[]
      const fetchMs = performance.now() - t
      const sample = schedules.slice(0, 1_000)
      t = performance.now()
      for (const s of sample) shouldSendIt(s.cron, s.timezone)
      const sampleMs = performance.now() - t
      results.push({
        size,
        fetchMs,
        evaluateMs: (sampleMs / sample.length) * size,
        extrapolated: size > sample.length,
      })
    }
  })
  await sql.end()
  return results
}
