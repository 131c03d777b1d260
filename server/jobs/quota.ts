/**
 * The per-organisation limits on jobs: how many may be enabled at once (`ORG_MAX_ENABLED_JOBS`), so
 * nobody can fill the scheduler (or the model budget) with jobs, and how many may be stored at all
 * (`ORG_MAX_JOBS`), so nobody can fill the database, or the pages and feeds that read every visible
 * job, with paused ones (decision 0452).
 */
import type { Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { env } from '../env.ts'
import { quotaExceeded } from '../lib/errors.ts'
import { countEnabledJobs, countJobs } from './store.ts'

/**
 * Makes one organisation's job writes that a limit counts take turns until `tx` ends: two creates
 * (or enables) at once would otherwise both count the same room and both take it.
 */
export async function lockOrgJobCounts(orgId: string, tx: Db): Promise<void> {
  await lockKey(tx, `job-counts:${orgId}`)
}

/**
 * Checks that one more enabled job fits in the organisation (`jobId` is the job being enabled,
 * not counted; null for a new one). Call it in the write's transaction.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkEnabledJobQuota(orgId: string, jobId: string | null, tx: Db): Promise<void> {
  await lockOrgJobCounts(orgId, tx)
  const limit = env().ORG_MAX_ENABLED_JOBS
  const enabled = await countEnabledJobs(orgId, jobId, tx)
  if (enabled < limit) return
  throw quotaExceeded(
    `This organisation already has ${limit} enabled jobs, its limit: pause one first, or ask the operator to raise ORG_MAX_ENABLED_JOBS`,
    'enabled',
  )
}

/**
 * Checks that one more job, enabled or not, fits in the organisation. Call it in the creating
 * transaction.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkJobCountQuota(orgId: string, tx: Db): Promise<void> {
  await lockOrgJobCounts(orgId, tx)
  const limit = env().ORG_MAX_JOBS
  if ((await countJobs(orgId, tx)) < limit) return
  throw quotaExceeded(
    `This organisation already has ${limit} jobs, its limit (paused ones count): delete one first, or ask the operator to raise ORG_MAX_JOBS`,
  )
}
