/**
 * The per-organisation budget of runs on the deployment's model key
 * (`ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY`, a rolling 24 hours): runs that would spend it past the
 * limit fail with the reason, Run now answers 429, and admins can see the usage.
 */
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { env } from '../env.ts'
import { countEnabledJobs, countJobs } from '../jobs/store.ts'
import { countDeploymentKeyTurns } from './chat-turns.ts'
import { orgDiskUse } from '../environments/org-disk.ts'
import { getJob } from '../jobs/service.ts'
import { HttpError, forbidden } from '../lib/errors.ts'
import type { RunCap } from '../runs/budget.ts'
import { countDeploymentKeyRuns } from '../runs/store.ts'
import { deploymentBudgetRefusal } from '../runs/deployment-budget.ts'
import { assertKeyNotRefused, readModelChoice, resolveModelKey, type KeySource } from './model.ts'
import { orgResourceTotals } from '../resources/store.ts'

const limitMessage = (limit: number) =>
  `This organisation has used its ${limit} runs on the deployment's model key in the last 24 hours. ` +
  'Add an organisation or personal key under Settings → Models, or ask the operator to raise ' +
  'ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY.'

/** The reason a run on the deployment's key may not start now, or null when it may. */
export async function deploymentRunRefusal(
  orgId: string,
  exceptRunId: string | null,
): Promise<string | null> {
  const limit = env().ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY
  const used = await countDeploymentKeyRuns(orgId, exceptRunId)
  return used >= limit ? limitMessage(limit) : null
}

/**
 * What a run may spend: its job's cap (`maxCostUsd`), and on the deployment's key never more than
 * `DEPLOYMENT_KEY_MAX_RUN_COST_USD`. Anyone who signs up runs on that key; without a ceiling a job
 * with no cap (a harness sending calls for its whole timeout) spends the operator's money without
 * bound (decision 0447).
 */
export function runCap(keySource: KeySource, jobCapUsd: number | null): RunCap | null {
  const job = jobCapUsd === null ? null : ({ usd: jobCapUsd, rule: 'job' } as const)
  if (keySource !== 'deployment') return job
  const ceiling = env().DEPLOYMENT_KEY_MAX_RUN_COST_USD
  return job && job.usd <= ceiling ? job : { usd: ceiling, rule: 'deployment' }
}

/**
 * Refuses Run now when the job would spend a stored key the provider refused (decision 0505), or
 * the deployment's key and the organisation's runs on it for the day, or the server's daily budget
 * for it, are used up.
 *
 * @throws HttpError 409 `model_key_refused`, 429 `quota_exceeded`
 */
export async function checkRunNowQuota(caller: Caller, jobId: string): Promise<void> {
  const job = await getJob(caller, jobId)
  const purpose = { kind: 'run' as const, runAs: job.runAs, userId: job.createdBy.id, orgId: job.orgId }
  const { provider } = readModelChoice()
  const key = await resolveModelKey(purpose, provider)
  // A run on a key the provider refused would fail before its first call: say so, and queue nothing.
  assertKeyNotRefused(key, provider)
  if (key?.source !== 'deployment') return
  const refusal = (await deploymentRunRefusal(job.orgId, null)) ?? (await deploymentBudgetRefusal(null))
  if (refusal) throw new HttpError(429, 'quota_exceeded', refusal)
}

export type OrgUsage = {
  enabledJobs: { used: number; limit: number }
  jobs: { used: number; limit: number }
  deploymentKeyRuns: { used: number; limit: number; windowHours: 24 }
  deploymentKeyChatTurns: { used: number; limit: number; windowHours: 24 }
  /** Bytes the organisation's environments hold together on this deployment (ORG_MAX_DISK_MB, decision 0491). */
  environmentDisk: { used: number; limit: number }
  /** Workspace files, both scopes (ORG_MAX_WORKSPACE_FILES, decision 0453). */
  workspaceFiles: { used: number; limit: number }
  /** Bytes those files hold together in the database (ORG_MAX_WORKSPACE_MB, decision 0499). */
  workspaceStorage: { used: number; limit: number }
}

/** The caller's organisation against its limits; for admins and owners. @throws HttpError 403 */
export async function getOrgUsage(caller: Caller): Promise<OrgUsage> {
  if (!isOrgAdmin(caller)) throw forbidden("Only the organisation's admins and owners see its usage")
  const config = env()
  const [enabled, jobs, runs, turns, disk, files] = await Promise.all([
    countEnabledJobs(caller.orgId, null),
    countJobs(caller.orgId),
    countDeploymentKeyRuns(caller.orgId, null),
    countDeploymentKeyTurns(caller.orgId),
    orgDiskUse(caller.orgId),
    orgResourceTotals(caller.orgId),
  ])
  return {
    enabledJobs: { used: enabled, limit: config.ORG_MAX_ENABLED_JOBS },
    jobs: { used: jobs, limit: config.ORG_MAX_JOBS },
    deploymentKeyRuns: { used: runs, limit: config.ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY, windowHours: 24 },
    deploymentKeyChatTurns: {
      used: turns,
      limit: config.ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY,
      windowHours: 24,
    },
    environmentDisk: { used: disk.usedBytes, limit: disk.limitBytes },
    workspaceFiles: { used: files.files, limit: config.ORG_MAX_WORKSPACE_FILES },
    workspaceStorage: { used: files.bytes, limit: config.ORG_MAX_WORKSPACE_MB * 1024 * 1024 },
  }
}
