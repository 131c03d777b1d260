/**
 * The per-organisation limit on enabled jobs (`ORG_MAX_ENABLED_JOBS`): creating or enabling one
 * more is refused, so nobody can fill the scheduler (or the model budget) with jobs.
 */
import type { Db } from '../db/client.ts'
import { env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { countEnabledJobs } from './store.ts'

/**
 * Checks that one more enabled job fits in the organisation (`jobId` is the job being enabled,
 * not counted; null for a new one).
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkEnabledJobQuota(orgId: string, jobId: string | null, db: Db): Promise<void> {
  const limit = env().ORG_MAX_ENABLED_JOBS
  const enabled = await countEnabledJobs(orgId, jobId, db)
  if (enabled < limit) return
  throw new HttpError(
    403,
    'quota_exceeded',
    `This organisation already has ${limit} enabled jobs, its limit: pause one first, or ask the operator to raise ORG_MAX_ENABLED_JOBS`,
    'enabled',
  )
}
