/**
 * SQL for `machines` (one row per (owner, id), with the instance holding its socket) and
 * `machine_runs` (which runs used which machine, and the stops asked for them).
 */
import { and, count, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { machineRuns, machines } from '../db/schema/app.ts'

export type MachineRow = typeof machines.$inferSelect

/** A machine whose holder has not refreshed it for this long is offline (it refreshes every 30 s). */
export const STALE_MS = 90_000

/** Whether the record says a connection is open (its holder refreshed it lately). */
export const isLive = (row: Pick<MachineRow, 'connected' | 'lastSeenAt'>) =>
  row.connected && Date.now() - row.lastSeenAt.getTime() < STALE_MS

export async function findMachine(
  ownerId: string,
  id: string,
  db: Db = getDb(),
): Promise<MachineRow | undefined> {
  const rows = await db
    .select()
    .from(machines)
    .where(and(eq(machines.ownerId, ownerId), eq(machines.id, id)))
  return rows[0]
}

export async function listMachineRows(ownerId: string, db: Db = getDb()): Promise<MachineRow[]> {
  return db.select().from(machines).where(eq(machines.ownerId, ownerId)).orderBy(machines.label)
}

type Connected = Pick<MachineRow, 'ownerId' | 'id' | 'label' | 'os' | 'version' | 'dir' | 'tokenId'> & {
  instanceId: string
  instanceUrl: string
  connectionId: string
}

/** Why a registration was not recorded: the account is full, or the machine is live elsewhere. */
export type NotRecorded = { ok: false; full: number } | { ok: false; live: MachineRow }

/**
 * Records the connection, unless the machine is live already and `replace` is false (answers its
 * record), or it would be the owner's machine number `limit + 1` (answers how many they have).
 * Otherwise answers the record it replaces. One owner's registrations take turns (an advisory
 * lock), so instances racing can pass neither the cap nor the replace check together.
 */
export async function markConnected(
  row: Connected,
  options: { limit: number; replace: boolean },
  db: Db = getDb(),
): Promise<{ ok: true; previous: MachineRow | undefined } | NotRecorded> {
  return db.transaction(async (tx) => {
    await lockKey(tx, `machines:${row.ownerId}`)
    const previous = await findMachine(row.ownerId, row.id, tx)
    if (previous && isLive(previous) && !options.replace) return { ok: false, live: previous }
    const [others] = await tx
      .select({ n: count() })
      .from(machines)
      .where(and(eq(machines.ownerId, row.ownerId), ne(machines.id, row.id)))
    if (others!.n >= options.limit) return { ok: false, full: others!.n }
    const now = new Date()
    const values = { ...row, connected: true, connectedAt: now, lastSeenAt: now }
    await tx
      .insert(machines)
      .values(values)
      .onConflictDoUpdate({ target: [machines.ownerId, machines.id], set: values })
    return { ok: true, previous }
  })
}

/** Forgets one of the owner's machines (its run history stays); true when there was one. */
export async function deleteMachine(ownerId: string, id: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db
    .delete(machines)
    .where(and(eq(machines.ownerId, ownerId), eq(machines.id, id)))
    .returning({ id: machines.id })
  return rows.length > 0
}

/** The owner's machines last connected with `tokenId`. */
export async function machinesOfToken(ownerId: string, tokenId: string, db: Db = getDb()) {
  return db
    .select()
    .from(machines)
    .where(and(eq(machines.ownerId, ownerId), eq(machines.tokenId, tokenId)))
}

/** Marks the machine offline unless a newer connection took its place meanwhile. */
export async function markDisconnected(ownerId: string, id: string, connectionId: string, db: Db = getDb()) {
  await db
    .update(machines)
    .set({ connected: false, lastSeenAt: new Date() })
    .where(and(eq(machines.ownerId, ownerId), eq(machines.id, id), eq(machines.connectionId, connectionId)))
}

export async function touchMachine(ownerId: string, id: string, connectionId: string, db: Db = getDb()) {
  await db
    .update(machines)
    .set({ lastSeenAt: new Date() })
    .where(and(eq(machines.ownerId, ownerId), eq(machines.id, id), eq(machines.connectionId, connectionId)))
}

/** Records that `runId` uses the machine; answers whether a stop was already asked for the run. */
export async function recordRunUse(ownerId: string, machineId: string, runId: string, db: Db = getDb()) {
  const rows = await db
    .insert(machineRuns)
    .values({ ownerId, machineId, runId })
    .onConflictDoUpdate({
      target: [machineRuns.ownerId, machineRuns.machineId, machineRuns.runId],
      set: { lastUsedAt: sql`now()` },
    })
    .returning({ stopRequestedAt: machineRuns.stopRequestedAt })
  return { stopped: rows[0]?.stopRequestedAt != null }
}

/**
 * Asks for a stop of `runId` on every machine it used (idempotent); the machines to tell. A key
 * ending in `/` stops every run id under it (a chat thread's turns: `<thread>/<turn>`).
 */
export async function requestStop(runId: string, db: Db = getDb()) {
  const which = runId.endsWith('/')
    ? sql`starts_with(${machineRuns.runId}, ${runId})`
    : eq(machineRuns.runId, runId)
  const rows = await db
    .update(machineRuns)
    .set({ stopRequestedAt: sql`coalesce(${machineRuns.stopRequestedAt}, now())` })
    .where(and(which, isNull(machineRuns.stopDeliveredAt)))
    .returning({ ownerId: machineRuns.ownerId, machineId: machineRuns.machineId })
  const seen = new Set<string>()
  return rows.filter((r) => {
    const k = `${r.ownerId}\u0000${r.machineId}`
    return seen.has(k) ? false : (seen.add(k), true)
  })
}

/** Run ids whose stop the machine has not acknowledged yet. */
export async function stopsDue(ownerId: string, machineId: string, db: Db = getDb()): Promise<string[]> {
  const rows = await db
    .select({ runId: machineRuns.runId })
    .from(machineRuns)
    .where(
      and(
        eq(machineRuns.ownerId, ownerId),
        eq(machineRuns.machineId, machineId),
        isNotNull(machineRuns.stopRequestedAt),
        isNull(machineRuns.stopDeliveredAt),
      ),
    )
  return rows.map((r) => r.runId)
}

export async function markStopDelivered(ownerId: string, machineId: string, runId: string, db: Db = getDb()) {
  await db
    .update(machineRuns)
    .set({ stopDeliveredAt: sql`now()` })
    .where(
      and(
        eq(machineRuns.ownerId, ownerId),
        eq(machineRuns.machineId, machineId),
        eq(machineRuns.runId, runId),
      ),
    )
}

/** The most recent runs of each of the owner's machines (for the Machines page). */
export async function recentRuns(ownerId: string, machineIds: string[], db: Db = getDb()) {
  if (machineIds.length === 0) return []
  return db
    .select()
    .from(machineRuns)
    .where(and(eq(machineRuns.ownerId, ownerId), inArray(machineRuns.machineId, machineIds)))
    .orderBy(desc(machineRuns.lastUsedAt))
    .limit(100)
}
