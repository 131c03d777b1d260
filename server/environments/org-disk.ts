/**
 * An organisation's disk on this deployment: its environments' folders together hold at most
 * ORG_MAX_DISK_MB (decision 0491). Each environment is bounded by its own `diskMb` and the
 * deployment's ENVIRONMENT_MAX_DISK_MB, but an organisation may have two hundred environments and a
 * person twenty organisations, so those alone let one account take hundreds of gigabytes of the
 * disk every tenant shares. The room the organisation's other environments leave (their sizes as
 * measured after their last commands) lowers an environment's quota as it is opened; every check of
 * that quota (before a command, while it runs, after it, the file tools' writes) then holds the
 * organisation's total too.
 */
import { and, eq, ne, sql } from 'drizzle-orm'
import { getDb } from '../db/client.ts'
import { environments } from '../db/schema/index.ts'
import { env } from '../env.ts'
import type { ExecLimits } from './exec/exec-schema.ts'
import { formatBytes } from '../lib/text.ts'
import { touchEnvironment } from './store.ts'

const MiB = 1024 * 1024

/**
 * What the organisation's environments hold together (all of them but `exceptId`), in bytes. Read
 * a scope at a time so each query reads one of the partial unique indexes (both lead with org_id),
 * not every tenant's environments: a growing command asks it every second or so (decision 0498).
 */
async function heldBytes(orgId: string, exceptId?: string): Promise<number> {
  let total = 0
  for (const scope of ['personal', 'shared'] as const) {
    const [held] = await getDb()
      .select({ bytes: sql<string>`coalesce(sum(${environments.sizeBytes}), 0)` })
      .from(environments)
      .where(
        and(
          eq(environments.orgId, orgId),
          eq(environments.scope, scope),
          exceptId ? ne(environments.id, exceptId) : undefined,
        ),
      )
    total += Number(held?.bytes ?? 0)
  }
  return total
}

/** The organisation's disk: what its environments hold together and what they may (the Environments page). */
export async function orgDiskUse(orgId: string): Promise<{ usedBytes: number; limitBytes: number }> {
  return { usedBytes: await heldBytes(orgId), limitBytes: env().ORG_MAX_DISK_MB * MiB }
}

/** How much of the organisation's disk the other environments leave `row`, in bytes (never below 0). */
export async function orgDiskRoom(row: { id: string; orgId: string }): Promise<number> {
  return Math.max(0, env().ORG_MAX_DISK_MB * MiB - (await heldBytes(row.orgId, row.id)))
}

/**
 * Records `row`'s folder at `usedBytes` while a command runs in it, and answers the room the other
 * environments leave it now: commands running at once in several of an organisation's environments
 * each see the others grow (decision 0498), where the room read as each opened was the same for all.
 */
export async function shareOrgDisk(
  row: { id: string; orgId: string },
  usedBytes: number,
): Promise<{ roomBytes: number; note: string }> {
  await touchEnvironment(row.id, usedBytes)
  const roomBytes = await orgDiskRoom(row)
  return { roomBytes, note: orgDiskNote(roomBytes) }
}

/** `limits` with the disk lowered to `roomBytes` when that is less; `byOrg` says whether it was. */
export function withinOrgDisk(limits: ExecLimits, roomBytes: number): { limits: ExecLimits; byOrg: boolean } {
  const roomMb = Math.floor(roomBytes / MiB)
  if (roomMb >= limits.diskMb) return { limits, byOrg: false }
  return { limits: { ...limits, diskMb: roomMb }, byOrg: true }
}

/**
 * What a refusal over a quota the organisation's total lowered adds, for commands (the execution's
 * `quotaNote`) and file writes (the file tools' `quotaNote`) alike: the person must free space in
 * any of the organisation's environments, not only this one.
 */
export const orgDiskNote = (roomBytes: number) =>
  `This organisation's environments are at their disk limit: together they may hold ` +
  `${formatBytes(env().ORG_MAX_DISK_MB * MiB)} on this server (ORG_MAX_DISK_MB), and the others leave ` +
  `this one ${formatBytes(roomBytes)}; deleting files or environments anywhere in it makes room.`
