/**
 * An organisation's workspace files are bounded in number (`ORG_MAX_WORKSPACE_FILES`): the
 * workspace tree reads the summary of every personal and shared file on each request, so their
 * number must be finite whatever a member writes (decision 0453). And in bytes
 * (`ORG_MAX_WORKSPACE_MB`): each file may hold a mebibyte, so the number alone let one organisation
 * store gigabytes in the database every tenant shares (decision 0499). Job files are jobs, bounded
 * by `ORG_MAX_JOBS`.
 */
import type { Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { env } from '../env.ts'
import { quotaExceeded } from '../lib/errors.ts'
import { formatBytes } from '../lib/text.ts'
import { orgResourceTotals } from './store.ts'

const MiB = 1024 * 1024

/** A write as the quota sees it: whether it makes a file, and how many bytes it adds (negative: frees). */
export type WorkspaceWrite = { newFile: boolean; growthBytes: number }

/**
 * Checks that a write fits in the organisation. Call it in the transaction that writes: writes that
 * make a file or grow one take turns on an advisory lock until it ends, since two at once would
 * otherwise both count the same room and both take it. A write that makes no file and frees bytes
 * always fits, so one over the limit (the operator lowered it) can still be cut down.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkWorkspaceRoom(orgId: string, tx: Db, write: WorkspaceWrite): Promise<void> {
  if (!write.newFile && write.growthBytes <= 0) return
  await lockKey(tx, `workspace-files:${orgId}`)
  const config = env()
  const held = await orgResourceTotals(orgId, tx)
  if (write.newFile && held.files >= config.ORG_MAX_WORKSPACE_FILES) {
    throw quotaExceeded(
      `This organisation already has ${config.ORG_MAX_WORKSPACE_FILES} workspace files, its limit (personal and shared together): ` +
        'delete one first, or ask the operator to raise ORG_MAX_WORKSPACE_FILES',
    )
  }
  if (write.growthBytes <= 0) return
  const limit = config.ORG_MAX_WORKSPACE_MB * MiB
  if (held.bytes + write.growthBytes <= limit) return
  throw quotaExceeded(
    `This organisation's workspace files hold ${formatBytes(held.bytes)} of ${formatBytes(limit)}, their limit ` +
      `(personal and shared together), and this write adds ${formatBytes(write.growthBytes)}: delete or ` +
      'shorten files first, or ask the operator to raise ORG_MAX_WORKSPACE_MB',
  )
}
