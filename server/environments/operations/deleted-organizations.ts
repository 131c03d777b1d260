/**
 * What a deleted organisation's environments kept on this instance's disk is removed (decision
 * 0521): its folder (every environment of an organisation lives under ENVIRONMENTS_DIR/<org id>)
 * and each environment's snapshot. Their records went with the organisation; its deletion, kept a
 * week, names it and its environments. Each instance removes its own, when told of a deletion and
 * once when it starts; a folder a command was still writing in is tried again a minute later.
 */
import { listDeletedOrganizations } from '../../accounts/organization-deletions.ts'
import type { DbHandle } from '../../db/client.ts'
import { onOrganizationDeleted } from '../../db/signal.ts'
import { logger } from '../../lib/logger.ts'
import { removeOrganizationFolderHere, removeSnapshotsHere } from './remove-files.ts'

const RETRY_MS = 60_000

/** Ids are ours, but a folder name is joined to a path: one segment, nothing else. */
const isOneSegment = (id: string) => /^[A-Za-z0-9_-]+$/.test(id)

/** Removes every deleted organisation's folder and snapshots here; true when all went. */
async function removeDeletedHere(handle: DbHandle): Promise<boolean> {
  let clean = true
  for (const { orgId, environmentIds } of await listDeletedOrganizations(handle.db)) {
    try {
      if (isOneSegment(orgId)) await removeOrganizationFolderHere(orgId)
      for (const id of environmentIds.filter(isOneSegment)) await removeSnapshotsHere(id)
    } catch (err) {
      clean = false
      logger.warn({ err, orgId }, 'could not remove a deleted organisation’s environments yet; trying again')
    }
  }
  return clean
}

/**
 * Removes deleted organisations' environments here now and whenever a deletion is told, one sweep
 * at a time (one asked meanwhile runs once after). Answers how to stop listening.
 */
export async function removeDeletedOrganizations(handle: DbHandle): Promise<() => Promise<void>> {
  let running: Promise<void> | null = null
  let again = false
  let retry: NodeJS.Timeout | undefined
  let stopped = false
  const sweep = (): void => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    clearTimeout(retry)
    running = removeDeletedHere(handle)
      .catch((err: unknown) => (logger.warn({ err }, 'could not list deleted organisations'), false))
      .then((clean) => {
        running = null
        if (again) {
          again = false
          sweep()
        } else if (!clean && !stopped) retry = setTimeout(sweep, RETRY_MS).unref()
      })
  }
  const unlisten = await onOrganizationDeleted(sweep, handle)
  sweep()
  return async () => {
    stopped = true
    clearTimeout(retry)
    await unlisten()
    await running
  }
}
