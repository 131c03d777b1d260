/**
 * The per-organisation limit on workspace files (`ORG_MAX_WORKSPACE_FILES`): the workspace tree
 * reads the summary of every personal and shared file on each request, so their number must be
 * finite whatever a member writes (decision 0453). Job files are jobs, bounded by `ORG_MAX_JOBS`.
 */
import type { Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { env } from '../env.ts'
import { quotaExceeded } from '../lib/errors.ts'
import { countOrgResources } from './store.ts'

/**
 * Checks that one more file fits in the organisation. Call it in the transaction that creates the
 * file: new files in one organisation take turns on an advisory lock until it ends, since two at
 * once would otherwise both count the same room and both take it.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkWorkspaceFileQuota(orgId: string, tx: Db): Promise<void> {
  await lockKey(tx, `workspace-files:${orgId}`)
  const limit = env().ORG_MAX_WORKSPACE_FILES
  if ((await countOrgResources(orgId, tx)) < limit) return
  throw quotaExceeded(
    `This organisation already has ${limit} workspace files, its limit (personal and shared together): ` +
      'delete one first, or ask the operator to raise ORG_MAX_WORKSPACE_FILES',
  )
}
