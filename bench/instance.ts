/**
 * One scheduler instance in its own process (spawned by bench/lib/children.ts). BENCH_SYSTEM picks
 * clockwork, pgboss or graphile; the handler is a no-op that prints a JSON line per fire.
 *
 *   BENCH_DB_URL       database            BENCH_INSTANCE     instance name
 *   BENCH_CONCURRENCY  runs at once        BENCH_POOL         connection pool size
 *   BENCH_QUEUES       pgboss: "single" or "b:1000" (b0 … b999)
 *   BENCH_BOSS_TUNED   pgboss: 1 = cron checked every second (default config otherwise)
 *   BENCH_CRONTAB      graphile: crontab file
 *   BENCH_EXECUTOR     clockwork: "noop" (default) or "agent" (the real agent executor; point
 *                      ANTHROPIC_BASE_URL at a fake model server)
 *   BENCH_LEASE_MS     clockwork: lease TTL      BENCH_GRACE_MS   clockwork: SIGTERM grace
 */
import { readFileSync } from 'node:fs'
import type { Fire } from './lib/children.ts'

const env = process.env
const system = env.BENCH_SYSTEM!
const instance = env.BENCH_INSTANCE!
const url = env.BENCH_DB_URL!
const concurrency = Number(env.BENCH_CONCURRENCY ?? 32)
const pool = Number(env.BENCH_POOL ?? 6)

const emit = (fire: Omit<Fire, 'system' | 'instance'>) =>
  process.stdout.write(`${JSON.stringify({ type: 'fire', system, instance, ...fire })}\n`)
const minuteOf = (ms: number) => ms - (ms % 60_000)

async function startClockwork(): Promise<() => Promise<void>> {
  const { openDatabase, setCurrentDatabase } = await import('#server/db/client.ts')
  const { startScheduler } = await import('#server/scheduler/scheduler.ts')
  const { createAgentExecutor } = await import('#server/agent/run-executor.ts')
  const handle = await openDatabase({ url, poolSize: pool })
  setCurrentDatabase(handle)
  const scheduler = await startScheduler({
    handle,
    instanceId: instance,
    concurrency,
    claimBatch: env.BENCH_CLAIM_BATCH ? Number(env.BENCH_CLAIM_BATCH) : undefined,
    graceMs: Number(env.BENCH_GRACE_MS ?? 5_000),
    leaseMs: env.BENCH_LEASE_MS ? Number(env.BENCH_LEASE_MS) : undefined,
    executor:
      env.BENCH_EXECUTOR === 'agent'
        ? createAgentExecutor()
        : async ({ run }) => {
            emit({ slot: run.scheduledFor.getTime(), recorded: run.createdAt.getTime(), started: Date.now() })
            return { transcript: [], usage: { inputTokens: 0, outputTokens: 0 } }
          },
  })
  return async () => {
    await scheduler.stop()
    await handle.close()
  }
}

async function startPgBoss(): Promise<() => Promise<void>> {
  const { default: PgBoss } = await import('pg-boss')
  const tuned = env.BENCH_BOSS_TUNED === '1'
  const boss = new PgBoss({
    connectionString: url,
    max: pool,
    // pg-boss checks schedules every 30 s and moves due ones every 5 s by default; "tuned" asks for
    // its minimum (1 s each), its best case for lateness.
    ...(tuned ? { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 } : {}),
  })
  boss.on('error', (err) => console.error(`[${instance}] pg-boss: ${err.message}`))
  await boss.start()
  const spec = env.BENCH_QUEUES ?? ''
  const [prefix, count] = spec.split(':')
  const queues = count ? Array.from({ length: Number(count) }, (_, i) => `${prefix}${i}`) : spec ? [spec] : []
  for (const queue of queues) {
    await boss.work(queue, { pollingIntervalSeconds: 2, includeMetadata: true }, async (jobs) => {
      const started = Date.now()
      for (const job of jobs) {
        const recorded = job.createdOn.getTime()
        // pg-boss does not store the slot; cron sends within the slot's minute.
        emit({ slot: minuteOf(recorded), recorded, started })
      }
    })
  }
  return () => boss.stop({ graceful: true, wait: true, timeout: 10_000 })
}

async function startGraphile(): Promise<() => Promise<void>> {
  const { run, Logger } = await import('graphile-worker')
  const runner = await run({
    connectionString: url,
    concurrency,
    maxPoolSize: pool,
    noHandleSignals: true,
    pollInterval: 2_000,
    crontab: env.BENCH_CRONTAB ? readFileSync(env.BENCH_CRONTAB, 'utf8') : '',
    logger: new Logger(() => () => {}),
    taskList: {
      noop: async (payload, helpers) => {
        const started = Date.now()
        const cron = (payload as { _cron?: { ts: string } })._cron
        const slot = cron ? Date.parse(cron.ts) : minuteOf(started)
        emit({ slot, recorded: new Date(helpers.job.created_at).getTime(), started })
      },
    },
  })
  return () => runner.stop()
}

const starters = { clockwork: startClockwork, pgboss: startPgBoss, graphile: startGraphile }
const stop = await starters[system as keyof typeof starters]()
process.stdout.write('{"type":"ready"}\n')
process.once('SIGTERM', () => {
  void stop()
    .catch((err) => console.error(`[${instance}] stop failed: ${(err as Error).message}`))
    .finally(() => process.exit(0))
})
