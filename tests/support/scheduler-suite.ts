/**
 * The set-up scheduler test files share: their own database with one owner, emptied of jobs before
 * each test, and a scheduler core on a manual clock whose `tick` waits for the runs it started.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { Db } from '#server/db/client.ts'
import type { RunExecutor } from '#server/runs/executor.ts'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { ManualClock } from './clock.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from './scheduler-db.ts'
import { createOwner, resetJobs, type Owner } from './scheduler-fixtures.ts'

export type SchedulerSuite = { database: SchedulerTestDatabase; owner: Owner; db(): Db }

/** Registers the file's hooks; read `suite.db()` and `suite.owner` inside tests. */
export function withSchedulerDatabase(): SchedulerSuite {
  const suite = { db: () => suite.database.handle.db } as SchedulerSuite
  beforeAll(async () => {
    suite.database = await createSchedulerDatabase()
    suite.owner = await createOwner(suite.database.handle.db)
  })
  afterAll(() => suite.database?.drop())
  beforeEach(() => resetJobs(suite.database.handle.db))
  return suite
}

// Leases are renewed by the shell's heartbeat, which core-only tests do not run: a day is "forever".
const DAY = 86_400_000

/** A scheduler core on a manual clock starting at `start`; `tick` also waits for its runs to end. */
export function manualCore(
  db: Db,
  start: string | Date,
  executor: RunExecutor,
  options: { leaseMs?: number; instance?: string } = {},
) {
  const clock = new ManualClock(start)
  const core = createSchedulerCore({
    db,
    instance: options.instance ?? 'test-a',
    executor,
    clock,
    leaseMs: options.leaseMs ?? DAY,
  })
  const tick = async () => {
    const result = await core.tick()
    await core.idle()
    return result
  }
  return { clock, core, tick }
}
