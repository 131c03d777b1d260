/**
 * Run now and Retry as a person (or their agent, or their MCP client) asks for them. Both are
 * refused, before anything is queued, where the run could not start: a key the provider refused
 * (decision 0505), the deployment key's runs or budget for the day. Every door that starts a run
 * for someone goes through here, so a new door cannot forget the checks.
 */
import type { Caller } from '../auth/caller.ts'
import { retryRun } from '../runs/control.ts'
import type { Run } from '../runs/schema.ts'
import { runJobNow } from '../runs/service.ts'
import { checkRunNowQuota } from './quota.ts'

/** Queues a run of `jobId` now. @throws HttpError 403/404, 409 `model_key_refused`, 429 `quota_exceeded` */
export async function startRunNow(caller: Caller, jobId: string): Promise<Run> {
  await checkRunNowQuota(caller, jobId)
  return runJobNow(caller, jobId)
}

/** Queues a new run of a failed or cancelled run's job. @throws HttpError as {@link startRunNow}, 409 unless retryable */
export function startRetry(caller: Caller, runId: string): Promise<Run> {
  return retryRun(caller, runId, (jobId) => checkRunNowQuota(caller, jobId))
}
