/**
 * `npm run chaos:scheduler`: exactly-once under fire. Starts N scheduler instances (separate
 * processes, bench/instance.ts, the real agent executor) on one Postgres with the fake model
 * server, creates J every-minute jobs (retries: 1), runs M minutes while SIGKILLing a random
 * instance every ~45 s (and restarting it under a new name), plus one SIGTERM halfway. Then it
 * counts from the database: duplicate and missing slots, interrupted runs and their retries,
 * claimed/started lateness, and how long the reaper took to mark a killed instance's runs.
 *
 *   npm run chaos:scheduler -- --instances 3 --jobs 1000 --minutes 10
 *   flags: --kill-every <s> (45)  --lease <s> (15)  --concurrency <n> (32)  --model-delay <ms> (2000)
 *          --keep (keep the database chaos_scheduler)
 *
 * Writes bench/chaos-results.json; bench/RESULTS.md has the figures.
 */
import './lib/quiet.ts'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { startFakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { Fleet, type Instance } from './lib/children.ts'
import { closeAdmin, describeMachine, dropDatabase } from './lib/pg.ts'
import { ms, summarize, table } from './lib/stats.ts'
import { notifySchedulers, prepareClockwork } from './systems/clockwork.ts'

const { values: flags } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    jobs: { type: 'string', default: '1000' },
    minutes: { type: 'string', default: '10' },
    'kill-every': { type: 'string', default: '45' },
    lease: { type: 'string', default: '15' },
    concurrency: { type: 'string', default: '32' },
    'model-delay': { type: 'string', default: '2000' },
    keep: { type: 'boolean', default: false },
  },
})
const N = Number(flags.instances)
const J = Number(flags.jobs)
const M = Number(flags.minutes)
const KILL_EVERY_MS = Number(flags['kill-every']) * 1000
const LEASE_MS = Number(flags.lease) * 1000
const CONCURRENCY = Number(flags.concurrency)
const MODEL_DELAY_MS = Number(flags['model-delay'])
const RETRY_BACKOFF_MS = 30_000
const DB = 'chaos_scheduler'

const t0 = Date.now()
const log = (message: string) => console.log(`[${Math.round((Date.now() - t0) / 1000)} s] ${message}`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))
const nextMinute = (after: number) => after - (after % 60_000) + 60_000

/** Every instance started, so a crash of this script does not leave them running. */
const children: Instance[] = []

type Kill = { name: string; signal: 'SIGKILL' | 'SIGTERM'; at: number }

async function main() {
  const machine = await describeMachine()
  log(`machine: ${machine.cpu}, load ${machine.loadAverage}; ${N} instances, ${J} jobs, ${M} min`)
  const fake = await startFakeAnthropic({
    fallback: { text: 'Done: nothing to do.' },
    delayMs: MODEL_DELAY_MS,
  })
  const db = await prepareClockwork(DB)
  const q = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => queryRows<T>(db.handle.db, query)
  // The runs' caller must be a member of the org (the agent executor checks).
  await q(
    sql`insert into member (id, organization_id, user_id, role) values ('bench_mem', 'bench_org', 'bench_user', 'owner')`,
  )

  const fleet = new Fleet()
  const slots = Array.from({ length: N }, (_, i) => ({
    index: i + 1,
    generation: 0,
    live: null as Instance | null,
  }))
  const startSlot = async (slot: (typeof slots)[number]) => {
    slot.generation++
    const name = `chaos-${slot.index}-g${slot.generation}`
    slot.live = await fleet.start('clockwork', name, {
      BENCH_DB_URL: db.url,
      BENCH_EXECUTOR: 'agent',
      BENCH_CONCURRENCY: String(CONCURRENCY),
      BENCH_POOL: '6',
      BENCH_LEASE_MS: String(LEASE_MS),
      BENCH_GRACE_MS: '5000',
      ANTHROPIC_API_KEY: 'fake-key-for-the-chaos-bench',
      ANTHROPIC_BASE_URL: fake.baseURL,
      BETTER_AUTH_SECRET: 'chaos-bench-only-not-a-secret-0123456789',
      DATABASE_URL: db.url,
      // The per-org daily run quota (default 2,000) would fail every run after the second minute.
      ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY: '10000000',
    })
    children.push(slot.live)
    await slot.live.ready
  }
  for (const slot of slots) await startSlot(slot)
  log('instances ready')

  const firstSlot = nextMinute(Date.now() + 10_000)
  const lastSlot = firstSlot + (M - 1) * 60_000
  await q(sql`
    insert into jobs (id, org_id, scope, name, created_by, schedule, timezone, instructions, retries, next_run_at)
    select 'chaos' || g, 'bench_org', 'shared', 'chaos' || g, 'bench_user', '* * * * *', 'UTC',
      'Chaos job ' || g || ': reply briefly.', 1, ${new Date(firstSlot).toISOString()}::timestamptz
    from generate_series(1, ${J}::int) g`)
  await notifySchedulers(db)
  log(`${J} jobs, slots ${new Date(firstSlot).toISOString()} … ${new Date(lastSlot).toISOString()}`)

  // Chaos: a SIGKILL every ~KILL_EVERY_MS (±30 %), one SIGTERM instead halfway; restart at once.
  const kills: Kill[] = []
  const sigtermAt = firstSlot + (M * 60_000) / 2
  let termed = false
  for (let at = Date.now() + jitter(KILL_EVERY_MS); at < lastSlot + 30_000; at += jitter(KILL_EVERY_MS)) {
    await sleep(at - Date.now())
    const slot = slots[Math.floor(Math.random() * slots.length)]!
    const child = slot.live!.child
    const signal: Kill['signal'] = !termed && Date.now() >= sigtermAt ? 'SIGTERM' : 'SIGKILL'
    termed ||= signal === 'SIGTERM'
    kills.push({ name: slot.live!.name, signal, at: Date.now() })
    const exited = new Promise((r) => child.once('exit', r))
    child.kill(signal)
    await exited
    log(`${signal} ${slot.live!.name}`)
    await startSlot(slot)
  }

  // Stop new slots once every job is past the last one, let retries and queued runs finish.
  await waitFor('every job claimed its last slot', 120_000, async () => {
    const [row] = await q<{ n: number }>(
      sql`select count(*)::int as n from jobs where next_run_at <= ${new Date(lastSlot).toISOString()}::timestamptz`,
    )
    return row!.n === 0
  })
  await q(sql`update jobs set next_run_at = now() + interval '1 year'`)
  await waitFor(
    'no run of the window is queued or running',
    LEASE_MS + 2 * RETRY_BACKOFF_MS + 60_000,
    async () => {
      const [row] = await q<{ n: number }>(
        sql`select count(*)::int as n from job_runs where status in ('queued', 'running')`,
      )
      return row!.n === 0
    },
  )
  await fleet.stop()
  const result = await count(q, { firstSlot, lastSlot, kills })
  const report = {
    machine: {
      ...machine,
      loadAverageAtEnd: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    },
    settings: {
      instances: N,
      jobs: J,
      minutes: M,
      killEveryMs: KILL_EVERY_MS,
      leaseMs: LEASE_MS,
      concurrency: CONCURRENCY,
      modelDelayMs: MODEL_DELAY_MS,
    },
    kills,
    modelCalls: fake.requests.length,
    ...result,
  }
  writeFileSync('bench/chaos-results.json', `${JSON.stringify(report, null, 2)}\n`)
  print(report)
  await fake.close()
  await db.handle.close()
  if (!flags.keep) await dropDatabase(DB)
  await closeAdmin()
  if (result.duplicates > 0 || result.missing > 0) process.exitCode = 1
}

const jitter = (ms: number) => ms * (0.7 + Math.random() * 0.6)

async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) {
      log(`gave up waiting: ${what}`)
      return
    }
    await sleep(1_000)
  }
}

type Q = <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => Promise<T[]>
const num = (v: unknown) => Number(v ?? 0)

async function count(q: Q, window: { firstSlot: number; lastSlot: number; kills: Kill[] }) {
  const from = new Date(window.firstSlot).toISOString()
  const to = new Date(window.lastSlot).toISOString()
  // Every (job, minute) of the window, against its first attempts.
  const [slots] = await q(sql`
    with expected as (
      select j.id as job_id, s as slot
      from jobs j, generate_series(${from}::timestamptz, ${to}::timestamptz, interval '1 minute') s
    ), firsts as (
      select job_id, scheduled_for, count(*) as n, bool_or(status = 'missed') as missed
      from job_runs where attempt = 1 and trigger <> 'manual' group by job_id, scheduled_for
    )
    select count(*) as expected,
      count(*) filter (where f.n is null) as missing,
      count(*) filter (where f.n > 1) as duplicate_rows,
      count(*) filter (where f.missed) as recorded_missed
    from expected e left join firsts f on f.job_id = e.job_id and f.scheduled_for = e.slot`)
  // A slot executed to success twice would be the real duplicate (the unique key forbids two rows).
  const [doubles] = await q(sql`
    select count(*) as n from (
      select job_id, scheduled_for from job_runs where status = 'success'
      group by job_id, scheduled_for having count(*) > 1) d`)
  const statuses = await q<{ status: string; trigger: string; n: unknown }>(sql`
    select status, trigger, count(*) as n from job_runs group by status, trigger order by status, trigger`)
  // Why runs failed, so a harness problem (a quota, a missing variable) cannot pass for a result.
  const failures = await q<{ why: string; n: unknown }>(sql`
    select left(coalesce(error, reason, '(none)'), 160) as why, count(*) as n from job_runs
    where status = 'error' group by 1 order by 2 desc limit 5`)
  const lateness = await q<{ claimed: unknown; started: unknown }>(sql`
    select extract(epoch from created_at - scheduled_for) * 1000 as claimed,
      extract(epoch from started_at - scheduled_for) * 1000 as started
    from job_runs where attempt = 1 and trigger = 'schedule'
      and scheduled_for between ${from}::timestamptz and ${to}::timestamptz`)
  // Reaper: how long after each SIGKILL the dead instance's runs were marked interrupted.
  const reaped = await q<{ instance: string; finished: unknown; lease: unknown; n: unknown }>(sql`
    select instance, extract(epoch from finished_at) * 1000 as finished, count(*) as n
    from job_runs where status = 'interrupted' and error like '%stopped renewing its lease%'
    group by instance, finished_at`)
  const reaperMs: number[] = []
  let reapedRuns = 0
  for (const kill of window.kills.filter((k) => k.signal === 'SIGKILL')) {
    for (const r of reaped.filter((x) => x.instance === kill.name)) {
      reaperMs.push(num(r.finished) - kill.at)
      reapedRuns += num(r.n)
    }
  }
  const [retries] = await q(sql`
    select count(*) filter (where r.trigger = 'retry') as retries,
      count(*) filter (where r.trigger = 'retry' and r.status = 'success') as retries_succeeded,
      count(*) filter (where r.status = 'interrupted') as interrupted,
      count(*) filter (where r.status = 'interrupted' and exists (
        select 1 from job_runs n where n.job_id = r.job_id and n.scheduled_for = r.scheduled_for
          and n.attempt = r.attempt + 1)) as interrupted_retried,
      count(*) filter (where r.status = 'interrupted' and r.error like '%shut down%') as interrupted_by_sigterm,
      count(*) filter (where r.status = 'interrupted' and r.error like '%lost its lease%') as lease_lost
    from job_runs r`)
  return {
    slots: num(slots!.expected),
    missing: num(slots!.missing),
    duplicates: num(slots!.duplicate_rows) + num(doubles!.n),
    recordedMissed: num(slots!.recorded_missed),
    statuses: statuses.map((s) => ({ status: s.status, trigger: s.trigger, n: num(s.n) })),
    failures: failures.map((f) => ({ why: f.why, n: num(f.n) })),
    interrupted: num(retries!.interrupted),
    interruptedRetried: num(retries!.interrupted_retried),
    interruptedBySigterm: num(retries!.interrupted_by_sigterm),
    leaseLost: num(retries!.lease_lost),
    retries: num(retries!.retries),
    retriesSucceeded: num(retries!.retries_succeeded),
    claimed: summarize(lateness.map((l) => num(l.claimed))),
    started: summarize(lateness.filter((l) => l.started !== null).map((l) => num(l.started))),
    reaper: { runs: reapedRuns, afterKillMs: summarize(reaperMs), targetMs: LEASE_MS + 1_000 },
  }
}

type Report = Awaited<ReturnType<typeof count>> & { kills: Kill[]; modelCalls: number }

function print(r: Report) {
  console.log(`\nChaos: ${N} instances, ${J} jobs, ${M} min, lease ${LEASE_MS / 1000} s`)
  console.log(
    `kills: ${r.kills.filter((k) => k.signal === 'SIGKILL').length} SIGKILL, ${r.kills.filter((k) => k.signal === 'SIGTERM').length} SIGTERM`,
  )
  console.log(
    table(
      [
        'slots',
        'duplicates',
        'missing',
        'recorded missed',
        'interrupted',
        'of which retried',
        'retries',
        'retries ok',
        'model calls',
      ],
      [
        [
          r.slots,
          r.duplicates,
          r.missing,
          r.recordedMissed,
          r.interrupted,
          r.interruptedRetried,
          r.retries,
          r.retriesSucceeded,
          r.modelCalls,
        ].map(String),
      ],
    ),
  )
  const row = (label: string, s: ReturnType<typeof summarize>) => [
    label,
    String(s?.n ?? 0),
    ms(s?.p50),
    ms(s?.p99),
    ms(s?.max),
  ]
  console.log(
    table(
      ['after the slot / kill', 'n', 'p50', 'p99', 'max'],
      [
        row('claimed', r.claimed),
        row('started', r.started),
        row('reaped after SIGKILL', r.reaper.afterKillMs),
      ],
    ),
  )
  console.log(
    `interrupted: ${r.interrupted} (lease expired after a kill: ${r.reaper.runs}; SIGTERM grace ran out: ${r.interruptedBySigterm}; lease lost by a live instance: ${r.leaseLost})`,
  )
  console.log(`reaper target: ≤ ${ms(r.reaper.targetMs)} (lease TTL + 1 s); runs reaped: ${r.reaper.runs}`)
  console.log(
    table(
      ['status', 'trigger', 'runs'],
      r.statuses.map((s) => [s.status, s.trigger, String(s.n)]),
    ),
  )
  if (r.failures.length > 0) {
    console.log('most common errors:')
    console.log(
      table(
        ['error', 'runs'],
        r.failures.map((f) => [f.why, String(f.n)]),
      ),
    )
  }
}

main().catch(async (err) => {
  console.error(err)
  for (const { child } of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  process.exit(1)
})
