/**
 * A scheduler in a process of its own, for crash and shutdown tests (run with `node --import tsx`).
 * Settings come from CHILD_* variables; it prints "ready" once started and, on SIGTERM, stops
 * the way the server entry does: no new claims, a grace period, then interrupt the rest.
 *
 *   CHILD_DATABASE_URL  database to use               CHILD_INSTANCE  instance id
 *   CHILD_EXECUTOR      hang | sleep:<ms>             CHILD_LEASE_MS  lease TTL (heartbeat = TTL / 4)
 *   CHILD_GRACE_MS      SIGTERM grace period          CHILD_BACKOFF_MS retry backoff
 */
import { openDatabase, setCurrentDatabase } from '#server/db/client.ts'
import type { RunExecutor } from '#server/runs/executor.ts'
import { startScheduler } from '#server/scheduler/scheduler.ts'
import { hang, ok } from './fake-executor.ts'

const config = process.env
const executorName = config.CHILD_EXECUTOR ?? 'hang'
const executor: RunExecutor = executorName.startsWith('sleep:')
  ? async () => {
      await new Promise((r) => setTimeout(r, Number(executorName.slice('sleep:'.length))))
      return ok('finished in the child')
    }
  : hang

const handle = await openDatabase({ url: config.CHILD_DATABASE_URL!, poolSize: 3 })
setCurrentDatabase(handle)
const scheduler = await startScheduler({
  handle,
  executor,
  instanceId: config.CHILD_INSTANCE,
  leaseMs: Number(config.CHILD_LEASE_MS ?? 60_000),
  graceMs: Number(config.CHILD_GRACE_MS ?? 25_000),
  backoffMs: [Number(config.CHILD_BACKOFF_MS ?? 30_000)],
})
process.stdout.write('ready\n')

process.once('SIGTERM', () => {
  void scheduler
    .stop()
    .then(() => handle.close())
    .then(() => process.exit(0))
})
