/**
 * The reaper: a running run whose lease lapsed belongs to an instance that died (kill -9, OOM,
 * lost network). It becomes `interrupted` and, if the job's retries allow, gets another attempt.
 * Any instance may reap; the settle guard makes sure only one does.
 */
import type { SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import type { RunRow } from '../runs/schema.ts'
import { settleRun } from '../runs/settle.ts'
import { findExpiredLeases } from '../runs/store.ts'

/** Settles at once (each a short transaction of its own); the loop's pool has four connections. */
const REAP_PARALLEL = 4

export async function reapExpiredLeases(
  options: { now: () => SQL; backoffMs?: readonly number[]; limit?: number },
  db: Db,
): Promise<RunRow[]> {
  const expired = await findExpiredLeases(options.now(), options.limit ?? 100, db)
  // A killed instance leaves all its runs lapsing together: settle them four at a time (each settle
  // is its own short transaction), so the last is marked soon after its lease.
  const reaped: RunRow[] = []
  const queue = [...expired]
  const worker = async () => {
    for (let run = queue.shift(); run; run = queue.shift()) {
      const now = options.now()
      const settled = await settleRun(
        run.id,
        {
          status: 'interrupted',
          error: `The server running it (${run.instance}) stopped responding: it was stopped, crashed or lost touch with the database`,
          reason: `the server running it (${run.instance}) stopped responding`,
        },
        { guard: { leaseExpiredBefore: now }, now, backoffMs: options.backoffMs },
        db,
      )
      if (settled) reaped.push(settled)
    }
  }
  await Promise.all(Array.from({ length: REAP_PARALLEL }, worker))
  return reaped
}
