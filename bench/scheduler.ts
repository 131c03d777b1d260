/**
 * `npm run bench:scheduler`: Clockwork's scheduler against pg-boss and graphile-worker on the
 * machine's Postgres, with no-op handlers, three instances each (separate processes). Prints the
 * comparison and writes bench/results.json. See bench/RESULTS.md for figures and caveats.
 *
 * BENCH_QUICK=1 runs a small version (a minute or two) for checking the harness.
 */
import './lib/quiet.ts'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { queryRows } from '#server/db/sql.ts'
import { Fleet, type Fire } from './lib/children.ts'
import { closeAdmin, describeMachine, dropDatabase, transactionCount } from './lib/pg.ts'
import { ms, summarize, table } from './lib/stats.ts'
import { insertJobs, notifySchedulers, prepareClockwork, timeDueSelection } from './systems/clockwork.ts'
import { prepareGraphile, timeCronPass as graphileCronPass, writeCrontab } from './systems/graphile.ts'
import { preparePgBoss, timeCronPass as pgbossCronPass } from './systems/pgboss.ts'

const quick = process.env.BENCH_QUICK === '1'
const BURST = quick ? 300 : 10_000
/** pg-boss needs a queue (a partitioned table, ~60 ms of DDL) per schedule: 10,000 would take ~10 min. */
const BOSS_BURST = quick ? 30 : 1_000
const SINGLE_MINUTES = quick ? 1 : 3
const IDLE_SECONDS = quick ? 20 : 75
const SIZES = quick ? [1_000, 10_000] : [1_000, 100_000, 1_000_000]
/** Stored jobs (none due during the window) in the idle measurement. */
const IDLE_SIZES = quick ? [1_000, 10_000] : [1_000, 100_000]
/** One-off slots for Clockwork's one-job start latency (a minute schedule gives one sample a minute). */
const START_SAMPLES = quick ? 10 : 60
const CONCURRENCY = 32
const TZ = 'Europe/Berlin'
const SYSTEMS = ['clockwork', 'pgboss', 'graphile'] as const
type System = (typeof SYSTEMS)[number]

const t0 = Date.now()
const log = (message: string) => console.log(`[${Math.round((Date.now() - t0) / 1000)} s] ${message}`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))
const nextMinute = (after: number) => after - (after % 60_000) + 60_000
const crontabPath = (name: string) => path.join(os.tmpdir(), `clockwork-bench-${name}.crontab`)

type Lateness = { recorded: ReturnType<typeof summarize>; started: ReturnType<typeof summarize> }
function lateness(fires: Fire[]): Lateness {
  return {
    recorded: summarize(fires.map((f) => f.recorded - f.slot)),
    started: summarize(fires.map((f) => f.started - f.slot)),
  }
}
/** Fires per second between the first and the last; null when they all share one millisecond (one batch). */
function rate(count: number, times: number[]): number | null {
  const span = (Math.max(...times) - Math.min(...times)) / 1000
  return span > 0 ? count / span : null
}
const perSecond = (v: number | null) => (v === null ? 'all in one batch' : v.toFixed(0))

async function main() {
  const machine = await describeMachine()
  log(`machine: ${machine.cpu}, ${machine.memoryGb} GB, ${machine.postgres}`)

  // Setup: one database per system and phase, so each one's queries can be counted apart.
  const cw = await prepareClockwork('bench_cw')
  const cwIdle = await prepareClockwork('bench_cw_idle')
  const cwIdleSized = []
  for (const size of IDLE_SIZES) {
    const db = await prepareClockwork(`bench_cw_idle_${size}`)
    // Due some time in the next 1–30 days: stored, enabled, and not due during the window.
    await insertJobs(db, {
      prefix: 'idle',
      count: size,
      schedule: '0 7 * * *',
      timezone: TZ,
      nextRunAt: sql`now() + interval '1 day' + random() * interval '29 days'`,
    })
    await db.handle.db.execute(sql`analyze jobs`)
    cwIdleSized.push({ size, db })
  }
  await insertJobs(cw, {
    prefix: 'single',
    count: 1,
    schedule: '* * * * *',
    timezone: TZ,
    nextRunAt: sql`date_trunc('minute', now()) + interval '1 minute'`,
  })
  const bossUrl = await preparePgBoss('bench_boss', ['single'], { cron: '* * * * *', tz: TZ })
  const bossIdleUrl = await preparePgBoss('bench_boss_idle', ['idle'], null)
  const bossIdleDefaultUrl = await preparePgBoss('bench_boss_idle_default', ['idle'], null)
  const gwUrl = await prepareGraphile('bench_gw')
  const gwIdleUrl = await prepareGraphile('bench_gw_idle')
  writeCrontab(crontabPath('single'), '* * * * *', 1, 'single')
  log('databases ready')

  // Phase A: one every-minute job per system, three instances each.
  const single = new Fleet()
  for (let i = 1; i <= 3; i++) {
    const common = { BENCH_CONCURRENCY: String(CONCURRENCY) }
    await single.start('clockwork', `cw-${i}`, { ...common, BENCH_DB_URL: cw.url, BENCH_POOL: '6' })
    await single.start('pgboss', `boss-${i}`, {
      BENCH_DB_URL: bossUrl,
      BENCH_QUEUES: 'single',
      BENCH_BOSS_TUNED: '1',
      BENCH_POOL: '4',
    })
    await single.start('graphile', `gw-${i}`, {
      ...common,
      BENCH_DB_URL: gwUrl,
      BENCH_CRONTAB: crontabPath('single'),
      BENCH_POOL: '6',
    })
  }
  await single.ready()
  const readyAt = Date.now()
  log('phase A: instances ready, one every-minute job each')
  // Meanwhile, pg-boss's burst needs its queues (one at a time: DDL).
  const bossQueues = Array.from({ length: BOSS_BURST }, (_, i) => `b${i}`)
  const bossBurstPrep = preparePgBoss('bench_boss_burst', bossQueues, { cron: '* * * * *', tz: TZ })
  const phaseAEnd = nextMinute(readyAt + 5_000) + (SINGLE_MINUTES - 1) * 60_000 + 8_000
  await sleep(phaseAEnd - Date.now())
  const singleFires = single.fires.filter((f) => f.slot > readyAt)
  log(`phase A done: ${singleFires.length} fires`)
  // Clockwork's start latency with more samples: the same job, re-armed for a slot 1.5 s ahead
  // (a whole second, as cron slots are) and woken by NOTIFY, as an edit would.
  const startFires = await sampleStarts(cw, single)
  log(`phase A: ${startFires.length} one-off starts sampled`)
  await single.stop()

  // Phase B: a burst per system, each at its own minute.
  const bursts: Record<System, { count: number; fires: Fire[] }> = {} as never
  const cwBurst = await prepareClockwork('bench_cw_burst')
  bursts.clockwork = await burst('clockwork', BURST, async (fleet) => {
    for (let i = 1; i <= 3; i++) {
      await fleet.start('clockwork', `cw-burst-${i}`, {
        BENCH_DB_URL: cwBurst.url,
        BENCH_CONCURRENCY: String(CONCURRENCY),
        BENCH_POOL: '6',
      })
    }
    await fleet.ready()
    const at = nextMinute(Date.now() + 5_000)
    const iso = new Date(at).toISOString()
    await insertJobs(cwBurst, {
      prefix: 'burst',
      count: BURST,
      schedule: '* * * * *',
      timezone: TZ,
      nextRunAt: sql`${iso}::timestamptz`,
    })
    await notifySchedulers(cwBurst)
    return at
  })
  await cwBurst.handle.db.execute(sql`update jobs set enabled = false`)
  await cwBurst.handle.close()

  writeCrontab(crontabPath('burst'), '* * * * *', BURST, 'burst')
  bursts.graphile = await burst('graphile', BURST, async (fleet) => {
    const url = await prepareGraphile('bench_gw_burst')
    for (let i = 1; i <= 3; i++) {
      await fleet.start('graphile', `gw-burst-${i}`, {
        BENCH_DB_URL: url,
        BENCH_CONCURRENCY: String(CONCURRENCY),
        BENCH_CRONTAB: crontabPath('burst'),
        BENCH_POOL: '6',
      })
    }
    await fleet.ready()
    return nextMinute(Date.now() + 1_000)
  })

  const bossBurstUrl = await bossBurstPrep
  bursts.pgboss = await burst('pgboss', BOSS_BURST, async (fleet) => {
    for (let i = 1; i <= 3; i++) {
      await fleet.start('pgboss', `boss-burst-${i}`, {
        BENCH_DB_URL: bossBurstUrl,
        BENCH_QUEUES: `b:${BOSS_BURST}`,
        BENCH_BOSS_TUNED: '1',
        BENCH_POOL: '4',
      })
    }
    await fleet.ready()
    return nextMinute(Date.now() + 1_000)
  })

  const idle = new Fleet()
  // Idle: one instance per system with nothing due, alone on the machine, queries counted per database.
  for (const [system, name, env] of [
    ['clockwork', 'cw-idle', { BENCH_DB_URL: cwIdle.url, BENCH_POOL: '3' }],
    [
      'pgboss',
      'boss-idle',
      { BENCH_DB_URL: bossIdleUrl, BENCH_QUEUES: 'idle', BENCH_BOSS_TUNED: '1', BENCH_POOL: '3' },
    ],
    [
      'pgboss',
      'boss-idle-default',
      { BENCH_DB_URL: bossIdleDefaultUrl, BENCH_QUEUES: 'idle', BENCH_POOL: '3' },
    ],
    [
      'graphile',
      'gw-idle',
      { BENCH_DB_URL: gwIdleUrl, BENCH_CONCURRENCY: String(CONCURRENCY), BENCH_POOL: '3' },
    ],
  ] as const) {
    await idle.start(system, name, env)
  }
  for (const { size, db } of cwIdleSized) {
    await idle.start('clockwork', `cw-idle-${size}`, { BENCH_DB_URL: db.url, BENCH_POOL: '3' })
  }
  await idle.ready()
  await sleep(5_000)
  const idleDbs = {
    clockwork: 'bench_cw_idle',
    pgboss: 'bench_boss_idle',
    'pgboss (default config)': 'bench_boss_idle_default',
    graphile: 'bench_gw_idle',
    ...Object.fromEntries(
      IDLE_SIZES.map((size) => [
        `clockwork, ${size.toLocaleString('en-GB')} stored jobs`,
        `bench_cw_idle_${size}`,
      ]),
    ),
  }
  const idleStart = { at: Date.now(), counts: await countAll(idleDbs) }
  log(`idle: measuring for ${IDLE_SECONDS} s`)
  await sleep(IDLE_SECONDS * 1000)
  const idleEnd = { at: Date.now(), counts: await countAll(idleDbs) }
  await idle.stop()

  // Phase C: time to select due work as the stored job count grows.
  log('phase C: due-work selection at growing job counts')
  const cwScale = await timeDueSelection(SIZES)
  log('phase C: clockwork done')
  const bossScale = await pgbossCronPass(SIZES)
  log('phase C: pg-boss done')
  const gwScale = graphileCronPass(SIZES)

  const idleSeconds = (idleEnd.at - idleStart.at) / 1000
  const idleRates = Object.fromEntries(
    Object.keys(idleDbs).map((k) => [k, (idleEnd.counts[k]! - idleStart.counts[k]!) / idleSeconds]),
  )
  const report = {
    machine,
    quick,
    singleFires,
    startFires,
    bursts,
    cwScale,
    bossScale,
    gwScale,
    idleRates,
    idleSeconds,
  }
  writeFileSync('bench/results.json', `${JSON.stringify(summaryOf(report), null, 2)}\n`)
  printReport(report)

  for (const { db } of cwIdleSized) await db.handle.close()
  for (const name of [
    ...IDLE_SIZES.map((size) => `bench_cw_idle_${size}`),
    'bench_cw',
    'bench_cw_idle',
    'bench_cw_burst',
    'bench_cw_scale',
    'bench_boss',
    'bench_boss_idle',
    'bench_boss_idle_default',
    'bench_boss_burst',
    'bench_boss_scale',
    'bench_gw',
    'bench_gw_idle',
    'bench_gw_burst',
  ]) {
    await dropDatabase(name)
  }
  await cw.handle.close()
  await cwIdle.handle.close()
  await closeAdmin()
  log('done')
}

/** Starts a fleet via `setup` (which returns the slot), waits for that slot's fires, stops the fleet. */
async function burst(system: System, count: number, setup: (fleet: Fleet) => Promise<number>) {
  const fleet = new Fleet()
  const slot = await setup(fleet)
  log(`phase B: ${system}: ${count} jobs due at ${new Date(slot).toISOString()}`)
  const deadline = slot + 110_000
  while (Date.now() < deadline && fleet.fires.filter((f) => f.slot === slot).length < count) await sleep(250)
  await fleet.stop()
  const fires = fleet.fires.filter((f) => f.slot === slot)
  log(`phase B: ${system}: ${fires.length} of ${count} fired`)
  return { count, fires }
}

async function sampleStarts(cw: Awaited<ReturnType<typeof prepareClockwork>>, fleet: Fleet): Promise<Fire[]> {
  const slots = new Set<number>()
  for (let i = 0; i < START_SAMPLES; i++) {
    const [row] = await queryRows<{ at: Date | string }>(
      cw.handle.db,
      sql`update jobs set next_run_at = date_trunc('second', now()) + interval '1.5 second'
          returning next_run_at as at`,
    )
    slots.add(new Date(row!.at).getTime())
    await notifySchedulers(cw)
    await sleep(2_500)
  }
  // Put the minute schedule back, so the fleet's last fires are ordinary ones.
  await cw.handle.db.execute(
    sql`update jobs set next_run_at = date_trunc('minute', now()) + interval '1 minute'`,
  )
  return fleet.fires.filter((f) => f.system === 'clockwork' && slots.has(f.slot))
}

async function countAll(dbs: Record<string, string>) {
  const out: Record<string, number> = {}
  for (const [key, db] of Object.entries(dbs)) out[key] = await transactionCount(db)
  return out
}

type Report = {
  machine: Awaited<ReturnType<typeof describeMachine>>
  quick: boolean
  singleFires: Fire[]
  startFires: Fire[]
  bursts: Record<System, { count: number; fires: Fire[] }>
  cwScale: Awaited<ReturnType<typeof timeDueSelection>>
  bossScale: Awaited<ReturnType<typeof pgbossCronPass>>
  gwScale: ReturnType<typeof graphileCronPass>
  idleRates: Record<string, number>
  idleSeconds: number
}

function summaryOf(r: Report) {
  return {
    machine: r.machine,
    quick: r.quick,
    single: Object.fromEntries(
      SYSTEMS.map((s) => [s, lateness(r.singleFires.filter((f) => f.system === s))]),
    ),
    bursts: Object.fromEntries(
      SYSTEMS.map((s) => {
        const { count, fires } = r.bursts[s]
        return [
          s,
          {
            count,
            fired: fires.length,
            ...lateness(fires),
            recordedPerSecond: rate(
              fires.length,
              fires.map((f) => f.recorded),
            ),
            startedPerSecond: rate(
              fires.length,
              fires.map((f) => f.started),
            ),
            instances: [...new Set(fires.map((f) => f.instance))].length,
          },
        ]
      }),
    ),
    clockworkOneOffStarts: lateness(r.startFires),
    dueSelection: { clockwork: r.cwScale, pgboss: r.bossScale, graphile: r.gwScale },
    idleTransactionsPerSecond: r.idleRates,
    idleSeconds: r.idleSeconds,
  }
}

function printReport(r: Report) {
  const s = summaryOf(r)
  const row = (label: string, scenario: string, l: Lateness, extra = '') => [
    label,
    scenario,
    String(l.started?.n ?? 0),
    ms(l.started?.p50),
    ms(l.started?.p99),
    ms(l.started?.max),
    ms(l.recorded?.p50),
    ms(l.recorded?.p99),
    ms(l.recorded?.max),
    extra,
  ]
  console.log(
    '\nFire lateness (start − scheduled; "recorded" = the run/job row written − scheduled), 3 instances each',
  )
  console.log(
    table(
      [
        'system',
        'scenario',
        'n',
        'start p50',
        'start p99',
        'start max',
        'rec p50',
        'rec p99',
        'rec max',
        'notes',
      ],
      [
        ...SYSTEMS.map((sys) => row(sys, `1 job, ${SINGLE_MINUTES} min`, s.single[sys]!)),
        row('clockwork', `1 job, ${START_SAMPLES} one-off slots`, s.clockworkOneOffStarts),
        ...SYSTEMS.map((sys) => {
          const b = s.bursts[sys]!
          return row(sys, `${b.count} jobs, same minute`, b, `${b.fired}/${b.count} fired`)
        }),
      ],
    ),
  )
  console.log('\nBurst throughput (fires per second across the 3 instances)')
  console.log(
    table(
      ['system', 'jobs', 'recorded/s', 'started/s', 'instances used'],
      SYSTEMS.map((sys) => {
        const b = s.bursts[sys]!
        return [
          sys,
          String(b.count),
          perSecond(b.recordedPerSecond),
          perSecond(b.startedPerSecond),
          String(b.instances),
        ]
      }),
    ),
  )
  console.log('\nTime to select due work (median; Clockwork: the tick look-ahead + the claim select)')
  console.log(
    table(
      [
        'stored jobs',
        'clockwork look-ahead',
        'clockwork claim select',
        'pg-boss fetch all',
        'pg-boss evaluate',
        'graphile pass (in memory)',
      ],
      SIZES.map((size, i) => [
        size.toLocaleString('en-GB'),
        ms(r.cwScale[i]!.pendingMs),
        ms(r.cwScale[i]!.selectMs),
        ms(r.bossScale[i]!.fetchMs),
        `${ms(r.bossScale[i]!.evaluateMs)}${r.bossScale[i]!.extrapolated ? ' (extrapolated)' : ''}`,
        ms(r.gwScale[i]!.passMs),
      ]),
    ),
  )
  console.log(`clockwork plan: ${r.cwScale.map((c) => c.plan).join(' | ')}`)
  console.log(
    `\nIdle database transactions per second per instance (≈ queries/s; ${r.idleSeconds.toFixed(0)} s window)`,
  )
  console.log(
    table(
      ['system', 'per second'],
      Object.entries(r.idleRates).map(([k, v]) => [k, v.toFixed(2)]),
    ),
  )
}

main().catch(async (err) => {
  console.error(err)
  process.exit(1)
})
