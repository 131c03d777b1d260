/**
 * Scheduler instances announce themselves in `scheduler_instances` and heartbeat there, so the
 * status API and the layout banner can tell whether any scheduler is alive.
 */
import os from 'node:os'
import { eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { schedulerInstances } from '../db/schema/app.ts'

/** A scheduler not seen for this long is considered gone (the banner's threshold). */
export const INSTANCE_STALE_MS = 90_000

/** A readable, unique instance id: host, pid and a random tail (a pid can repeat across restarts). */
export function makeInstanceId(): string {
  return `${os.hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`
}

export async function registerInstance(id: string, now: SQL, db: Db): Promise<void> {
  await db
    .insert(schedulerInstances)
    .values({ id, hostname: os.hostname(), pid: process.pid, startedAt: now, lastSeenAt: now })
    .onConflictDoUpdate({ target: schedulerInstances.id, set: { lastSeenAt: now, stoppedAt: null } })
}

export async function heartbeatInstance(
  id: string,
  lastTickAt: Date | null,
  now: SQL,
  db: Db,
): Promise<void> {
  await db
    .update(schedulerInstances)
    .set({ lastSeenAt: now, ...(lastTickAt ? { lastTickAt } : {}) })
    .where(eq(schedulerInstances.id, id))
}

export async function markInstanceStopped(id: string, now: SQL, db: Db): Promise<void> {
  await db.update(schedulerInstances).set({ stoppedAt: now }).where(eq(schedulerInstances.id, id))
}

/** Forgets instances that stopped or vanished a day ago (their runs keep the instance name). */
export async function pruneInstances(now: SQL, db: Db): Promise<void> {
  await db.delete(schedulerInstances).where(sql`${schedulerInstances.lastSeenAt} < ${now} - interval '1 day'`)
}
