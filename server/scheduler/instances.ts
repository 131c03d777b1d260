/**
 * Scheduler instances announce themselves in `scheduler_instances` and heartbeat there (the
 * heartbeat itself is folded into the loop's pending-work read, see pending.ts), so the status API and the layout banner can tell whether any scheduler is alive.
 */
import { eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { schedulerInstances } from '../db/schema/app.ts'
import { newId } from '../lib/ids.ts'

/** A scheduler not seen for this long is considered gone (the banner's threshold). */
export const INSTANCE_STALE_MS = 90_000

/**
 * An opaque, unique instance id. It is shown to every signed-in person (status API, run errors),
 * so it says nothing about the machine; the start-up log line pairs it with hostname and pid.
 */
export function makeInstanceId(): string {
  return newId('sch')
}

export async function registerInstance(id: string, now: SQL, db: Db): Promise<void> {
  await db
    .insert(schedulerInstances)
    .values({ id, startedAt: now, lastSeenAt: now })
    .onConflictDoUpdate({ target: schedulerInstances.id, set: { lastSeenAt: now, stoppedAt: null } })
}

export async function markInstanceStopped(id: string, now: SQL, db: Db): Promise<void> {
  await db.update(schedulerInstances).set({ stoppedAt: now }).where(eq(schedulerInstances.id, id))
}

/** Forgets instances that stopped or vanished a day ago (their runs keep the instance name). */
export async function pruneInstances(now: SQL, db: Db): Promise<void> {
  await db.delete(schedulerInstances).where(sql`${schedulerInstances.lastSeenAt} < ${now} - interval '1 day'`)
}
