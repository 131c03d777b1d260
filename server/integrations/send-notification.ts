/**
 * The agent's send_notification: in a job run, post a message to one of the job's own notify
 * targets (onSuccess or onFailure), nowhere else. Recorded with the run's delivery attempts. An
 * email its address's pace holds back (decision 0531) is a 429 `email_paced` saying until when;
 * the run's job's creator decides which allowance it counts against (their own address's own, any
 * other address's for everyone else: decision 0536).
 */
import { eq } from 'drizzle-orm'
import type { Caller } from '../access/caller.ts'
import { getDb } from '../db/client.ts'
import { jobs } from '../db/schema/app.ts'
import type { Notify } from '../jobs/delivery-fields.ts'
import { badRequest, forbidden, HttpError, notFound } from '../lib/errors.ts'
import { findRun } from '../runs/store.ts'
import { defaultDeliveryConfig, deliver } from './deliver.ts'
import { runUrl } from './run-delivery.ts'

/** A tool call waits for its retries: short ones, unlike a run result's minutes. */
const TOOL_BACKOFF_MS = [1_000, 5_000]

export type SendNotificationInput = { target: string; subject?: string; message: string }

/** The job's configured targets, both lists, once each. */
export const notifyTargets = (notify: Notify) => [
  ...new Set([...(notify?.onSuccess ?? []), ...(notify?.onFailure ?? [])]),
]

export async function sendRunNotification(
  caller: Caller,
  runId: string | undefined,
  input: SendNotificationInput,
): Promise<{ delivered: boolean; target: string }> {
  if (!runId)
    throw badRequest('send_notification works in job runs only (to the job’s notify targets)', 'target')
  const run = await findRun(runId)
  const [job] = run ? await getDb().select().from(jobs).where(eq(jobs.id, run.jobId)) : []
  if (!run || !job || job.orgId !== caller.orgId) throw notFound(`No run with id ${runId}`)
  const allowed = notifyTargets(job.notify)
  if (!allowed.includes(input.target)) {
    throw forbidden(
      allowed.length
        ? `${input.target} is not one of this job's notify targets (${allowed.join(', ')})`
        : 'This job has no notify targets; its creator adds them in the job’s notify field',
    )
  }
  const url = runUrl(job.id, run.id)
  const result = await deliver(
    { orgId: job.orgId, runId: run.id, creatorId: job.createdBy },
    input.target,
    {
      type: 'agent.notification',
      subject: input.subject?.trim() || `${job.name}: a message from its run`,
      text: `${input.message}\n\n${url}`,
      data: { job: { id: job.id, name: job.name }, run: { id: run.id, url }, message: input.message },
    },
    { ...defaultDeliveryConfig(), backoffMs: TOOL_BACKOFF_MS },
  )
  // Held back by the address's pace (decision 0531): the agent reads why, and when it may mail again.
  if (result.pacedUntil) throw new HttpError(429, 'email_paced', result.error ?? 'too many mails', 'target')
  return { delivered: result.ok, target: input.target }
}
