/** Clockwork's side of the benchmark: databases, bulk jobs, and timing the due-work query. */
import { sql, type SQL } from 'drizzle-orm'
import { openDatabase, type DbHandle } from '#server/db/client.ts'
import { migrateDatabase } from '#server/db/migrate.ts'
import { selectDueJobs } from '#server/scheduler/claim.ts'
import { readPendingWork } from '#server/scheduler/pending.ts'
import { inTransaction, queryRows } from '#server/db/sql.ts'
import { median } from '../lib/stats.ts'
import { createDatabase } from '../lib/pg.ts'

const ROLLBACK = new Error('rollback')

export type ClockworkDb = { name: string; url: string; handle: DbHandle }

/** A fresh, migrated database with one organisation and user owning every benchmark job. */
export async function prepareClockwork(name: string): Promise<ClockworkDb> {
  const url = await createDatabase(name)
  const handle = await openDatabase({ url, poolSize: 2 })
  await migrateDatabase(handle)
  await handle.db.execute(
    sql`insert into "user" (id, name, email) values ('bench_user', 'Bench', 'bench@example.com')`,
  )
  await handle.db.execute(
    sql`insert into organization (id, name, slug) values ('bench_org', 'Bench', 'bench')`,
  )
  return { name, url, handle }
}

/** Inserts `count` jobs in one statement (generate_series). */
export async function insertJobs(
  db: ClockworkDb,
  options: {
    prefix: string
    count: number
    schedule: string
    timezone: string
    nextRunAt: SQL
    from?: number
  },
): Promise<void> {
  const from = options.from ?? 1
  await db.handle.db.execute(sql`
    insert into jobs (id, org_id, scope, name, created_by, schedule, timezone, instructions, next_run_at)
    select ${options.prefix} || g, 'bench_org', 'shared', ${options.prefix} || g, 'bench_user',
      ${options.schedule}, ${options.timezone}, 'Do nothing.', ${options.nextRunAt}
    from generate_series(${from}::int, ${from + options.count - 1}::int) g`)
}

export const notifySchedulers = (db: ClockworkDb) =>
  db.handle.db.execute(sql`select pg_notify('clockwork_jobs_changed', '')`)

/**
 * Time to select due work with `size` stored jobs, cumulatively growing to each size: most jobs
 * are due some time in the next 30 days (1 in 10 disabled), 10 are due now. Times the tick's
 * look-ahead (readPendingWork) and the claim's locking select (rolled back), 25 times each.
 */
export async function timeDueSelection(sizes: number[]) {
  const db = await prepareClockwork('bench_cw_scale')
  const results: { size: number; pendingMs: number; selectMs: number; plan: string; insertMs: number }[] = []
  let stored = 0
  for (const size of sizes) {
    const t0 = performance.now()
    await db.handle.db.execute(sql`
      insert into jobs (id, org_id, scope, name, created_by, schedule, timezone, instructions, next_run_at, enabled)
      select 'scale' || g, 'bench_org', 'shared', 'scale' || g, 'bench_user', '0 7 * * *', 'Europe/Berlin', 'Do nothing.',
        case when g % 100000 < 1 then now() - interval '1 second' else now() + random() * interval '30 days' end,
        g % 10 <> 0
      from generate_series(${stored + 1}::int, ${size}::int) g`)
    await db.handle.db.execute(sql`analyze jobs`)
    const insertMs = performance.now() - t0
    stored = size
    const pending: number[] = []
    const select: number[] = []
    for (let i = 0; i < 25; i++) {
      let t = performance.now()
      await readPendingWork(sql`now()`, db.handle.db)
      pending.push(performance.now() - t)
      // The claim's locking select, in a transaction that is then rolled back (nothing is claimed).
      await inTransaction(db.handle.db, async (tx) => {
        t = performance.now()
        await queryRows(tx, selectDueJobs(sql`now()`, 250))
        select.push(performance.now() - t)
        throw ROLLBACK
      }).catch((err) => {
        if (err !== ROLLBACK) throw err
      })
    }
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      db.handle.db,
      sql`explain ${selectDueJobs(sql`now()`, 250)}`,
    )
    results.push({
      size,
      pendingMs: median(pending),
      selectMs: median(select),
      plan:
        plan
          .map((p) => p['QUERY PLAN'])
          .find((l) => /Index|Seq Scan/.test(l))
          ?.trim() ?? '',
      insertMs,
    })
  }
  await db.handle.close()
  return results
}
