/**
 * After a run settles: its result goes to the job's `notify` targets (onSuccess or onFailure) and
 * the failure-alert policy looks at the job's streak. Called through the scheduler's `afterSettle`
 * seam (main.ts wires it) for runs their instance settled and runs the reaper settled, never
 * inside the settle transaction: a slow receiver holds up nothing. Retries wait in the database
 * (delivery-queue.ts).
 */
import { sql, type SQL } from 'drizzle-orm'
import { appUrl } from '../auth/auth.ts'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import type { Notify } from '../jobs/delivery-fields.ts'
import { logger } from '../lib/logger.ts'
import { canRetry } from '../runs/policy.ts'
import { FAILED_STATUSES, type RunRow } from '../runs/schema.ts'
import { readTranscript } from '../runs/threads.ts'
import { runEndedWords } from '../runs/words.ts'
import { checkDeadman, onRunSettledAlerts, type AlertJob } from './alerts.ts'
import {
  defaultDeliveryConfig,
  type DeliveryConfig,
  type DeliveryContext,
  type DeliveryMessage,
} from './deliver.ts'
import { createDeliveryQueue, DELIVERY_SWEEP_MS } from './delivery-queue.ts'
import { deleteOldJobMails, JOB_MAIL_RETENTION_MS } from './job-mail-pace.ts'

/** The job as delivery and alerts read it after a run settled (its run state included). */
export type SettledJob = AlertJob & { notify: Notify; retries: number }

async function loadSettledJob(jobId: string, db: Db): Promise<SettledJob | null> {
  const [row] = await queryRows<SettledJob>(
    db,
    sql`select id, org_id as "orgId", name, created_by as "createdBy", scope, notify, retries,
          consecutive_failures as "consecutiveFailures", suspended_reason as "suspendedReason",
          alert_after_failures as "alertAfterFailures"
        from jobs where id = ${jobId}`,
  )
  return row ?? null
}

/** Link to a run's page. */
export const runUrl = (jobId: string, runId: string) => `${appUrl()}/jobs/${jobId}/runs/${runId}`

/** The last thing the agent said: the text parts of the transcript's last assistant message. */
async function resultText(run: RunRow, db: Db): Promise<string> {
  if (!run.threadId) return ''
  const transcript = await readTranscript(run.threadId, db)
  const last = transcript.filter((m) => m.role === 'assistant').at(-1)
  return (last?.parts ?? [])
    .flatMap((p) => {
      const part = p as { type?: string; text?: string }
      return part.type === 'text' && part.text ? [part.text] : []
    })
    .join('\n')
    .trim()
}

export function runMessage(
  job: Pick<SettledJob, 'id' | 'name'>,
  run: RunRow,
  result: string,
): DeliveryMessage {
  const ok = run.status === 'success'
  const url = runUrl(job.id, run.id)
  const text = ok
    ? `${result || '(the run said nothing)'}\n\n${url}`
    : `The run of ${job.name} ${runEndedWords(run.status)}: ${run.error ?? 'no reason was given'}\n\n${url}`
  return {
    type: ok ? 'run.succeeded' : 'run.failed',
    subject: ok ? `${job.name}: run succeeded` : `${job.name}: run ${runEndedWords(run.status)}`,
    text,
    data: {
      job: { id: job.id, name: job.name },
      run: {
        id: run.id,
        status: run.status,
        trigger: run.trigger,
        attempt: run.attempt,
        scheduledFor: run.scheduledFor.toISOString(),
        startedAt: run.startedAt?.toISOString() ?? null,
        finishedAt: run.finishedAt?.toISOString() ?? null,
        error: run.error,
        url,
      },
      result,
    },
  }
}

/** Sends one message to one target (the retry queue's first attempt; tests may pass their own). */
export type SendFn = (ctx: DeliveryContext, target: string, message: DeliveryMessage) => Promise<boolean>

/** Sends the settled run's result to the job's targets and applies the alert policy. */
export async function afterRunSettled(run: RunRow, config: DeliveryConfig, send: SendFn): Promise<void> {
  const db = config.db
  const job = await loadSettledJob(run.jobId, db)
  if (!job) return
  const failed = (FAILED_STATUSES as readonly string[]).includes(run.status)
  // A failure that will be retried is not the run's end yet: its last attempt decides.
  if (failed && canRetry(run.attempt, job.retries)) return
  await onRunSettledAlerts(job, run, db).catch((err: unknown) =>
    logger.error({ err, runId: run.id }, 'could not apply the failure-alert policy'),
  )
  const targets =
    (run.status === 'success' ? job.notify?.onSuccess : failed ? job.notify?.onFailure : []) ?? []
  if (targets.length === 0) return
  const message = runMessage(job, run, await resultText(run, db))
  const ctx = { orgId: job.orgId, runId: run.id, creatorId: job.createdBy }
  await Promise.all(targets.map((target) => send(ctx, target, message)))
}

/** Once a minute: cheap (an indexed read of the jobs that set a window), and a breach is late by at most that. */
export const DEADMAN_CHECK_MS = 60_000

export type IntegrationHooksConfig = Partial<DeliveryConfig> & {
  /** How often this instance looks for retries another left due (default DELIVERY_SWEEP_MS). */
  sweepMs?: number
}

/**
 * What main.ts hands the scheduler: `afterSettle` (delivery and alerts after each run: work starts
 * at once and runs in the background), and watchers: the dead-man check, the sweep for due
 * delivery retries (first on start), and the hourly deletion of job mails' places older than a day
 * (job-mail-pace.ts). `idle()` waits for what is in flight and for retries armed
 * in this process (tests); `stop()` drops this process's wake-ups, leaving queued retries to
 * whichever instance sweeps next.
 */
export function integrationHooks(config: IntegrationHooksConfig = {}) {
  const { sweepMs = DELIVERY_SWEEP_MS, ...given } = config
  // Resolved at the first run, not here: main.ts builds the hooks before anything is sent.
  let resolved: DeliveryConfig | undefined
  const configOf = () => (resolved ??= { ...defaultDeliveryConfig(), ...given })
  const queue = createDeliveryQueue(configOf)
  return {
    afterSettle(run: RunRow) {
      void queue.track(
        afterRunSettled(run, configOf(), queue.send).catch((err: unknown) =>
          logger.error({ err, runId: run.id }, 'delivery after a run failed'),
        ),
      )
    },
    watchers: [
      { name: 'dead-man check', everyMs: DEADMAN_CHECK_MS, run: (now: SQL) => checkDeadman(now, given.db) },
      { name: 'delivery retries', everyMs: sweepMs, firstMs: 0, run: () => queue.sendDue() },
      {
        name: 'job mail retention',
        everyMs: JOB_MAIL_RETENTION_MS,
        run: (now: SQL) => deleteOldJobMails(now, given.db),
      },
    ],
    idle: queue.idle,
    stop: queue.stop,
  }
}
