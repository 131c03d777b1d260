/**
 * Failure alerts (issue 16.5) and the dead-man's switch (17.4): the job's creator, and for a shared
 * job the org's admins and owners, are told in the app (notifications list, unread count in the
 * header) and by email when SMTP is configured. A personal job is its creator's alone (the truth
 * table's 404 for anyone else), so its alerts, which carry its name and its runs' errors, go to
 * the creator only (docs/decisions/0418-alerts-and-prompts-stay-with-their-owner.md).
 * Each condition is announced once: a failure streak when it reaches `alertAfterFailures` (and
 * again when the job pauses itself), recovery on the next success, a dead-man breach once per
 * deadline. The "once" is a conditional write in job_alert_state, so several instances never
 * announce the same thing twice.
 */
import { sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { sendNotice, type NoticeKind } from '../accounts/notices.ts'
import { queryRows, toDate } from '../db/sql.ts'
import { logger } from '../lib/logger.ts'
import type { RunRow } from '../runs/schema.ts'
import { runEndedWords } from '../runs/words.ts'

export type AlertKind = Exclude<NoticeKind, 'transfer_offer'>

export type Alert = {
  orgId: string
  /** Null for an alert about no one job: a model key the provider refused (decision 0505). */
  jobId: string | null
  /** The job's creator (or whose call met a refused key): always told. */
  createdBy: string
  /** A shared job's alerts also go to the org's admins and owners; a personal job's never do. */
  scope: 'personal' | 'shared'
  kind: AlertKind
  title: string
  body: string
}

/** What the alert policy reads about a job right after one of its runs settled. */
export type AlertJob = {
  id: string
  orgId: string
  name: string
  createdBy: string
  scope: 'personal' | 'shared'
  consecutiveFailures: number
  suspendedReason: string | null
  alertAfterFailures: number
}

/**
 * Tells the job's creator, and for a shared job the org's admins and owners: in the app, and by
 * email if configured.
 */
export async function raiseAlert(alert: Alert, db: Db = getDb()): Promise<void> {
  const admins =
    alert.scope === 'shared'
      ? sql`or u.id in (select m.user_id from member m where m.organization_id = ${alert.orgId}
                        and (m.role like '%owner%' or m.role like '%admin%'))`
      : sql``
  const recipients = await queryRows<{ id: string; email: string }>(
    db,
    sql`select u.id, u.email from "user" u where u.id = ${alert.createdBy} ${admins}`,
  )
  await sendNotice(alert, recipients, db)
  if (recipients.length > 0)
    logger.info({ jobId: alert.jobId, kind: alert.kind, recipients: recipients.length }, 'alert raised')
}

/** Marks the streak announced unless it already was; true when this call is the one to announce it. */
async function claimStreak(jobId: string, db: Db): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`insert into job_alert_state (job_id, failing_since) values (${jobId}, now())
        on conflict (job_id) do update set failing_since = excluded.failing_since
          where job_alert_state.failing_since is null
        returning job_id`,
  )
  return rows.length > 0
}

/** The alert policy for one settled run (its last attempt: retries are not the end of a slot). */
export async function onRunSettledAlerts(job: AlertJob, run: RunRow, db: Db = getDb()): Promise<void> {
  const base = { orgId: job.orgId, jobId: job.id, createdBy: job.createdBy, scope: job.scope }
  if (run.status === 'success') {
    const cleared = await queryRows(
      db,
      sql`update job_alert_state set failing_since = null
          where job_id = ${job.id} and failing_since is not null returning job_id`,
    )
    if (cleared.length > 0) {
      await raiseAlert(
        { ...base, kind: 'recovered', title: `${job.name} recovered`, body: `${job.name} succeeded again.` },
        db,
      )
    }
    return
  }
  // settle.ts restarts the count at 0 when it pauses the job: a suspension with no count is that pause.
  if (job.suspendedReason && job.consecutiveFailures === 0) {
    await claimStreak(job.id, db)
    await raiseAlert(
      {
        ...base,
        kind: 'paused',
        title: `${job.name} paused itself`,
        body: `${job.suspendedReason}\n\nLast error: ${run.error ?? 'none recorded'}`,
      },
      db,
    )
    return
  }
  if (job.consecutiveFailures < job.alertAfterFailures || !(await claimStreak(job.id, db))) return
  await raiseAlert(
    {
      ...base,
      kind: 'failing',
      title:
        job.consecutiveFailures === 1
          ? `${job.name} failed`
          : `${job.name} failed ${job.consecutiveFailures} times in a row`,
      body: `The last run ${runEndedWords(run.status)}: ${run.error ?? 'no reason was given'}`,
    },
    db,
  )
}

/**
 * The dead-man's switch: every enabled job with `expectSuccessWithin` whose last success (or, if
 * it never succeeded, its creation) is older than the window, by the database clock `now`. Each
 * breach (deadline = last success + window) is claimed once, so it fires after downtime too, and
 * again only after a new success moves the deadline. Returns the jobs alerted.
 */
export async function checkDeadman(now: SQL, db: Db = getDb()): Promise<string[]> {
  const due = await queryRows<{
    id: string
    org_id: string
    name: string
    created_by: string
    scope: 'personal' | 'shared'
    window: string
    deadline: unknown
  }>(
    db,
    sql`with due as (
          select j.id, j.org_id, j.name, j.created_by, j.scope, j.expect_success_within as window,
            coalesce(
              (select max(r.finished_at) from job_runs r where r.job_id = j.id and r.status = 'success'),
              j.created_at
            ) + j.expect_success_within::interval as deadline
          from jobs j
          where j.expect_success_within is not null and j.enabled and j.suspended_reason is null
        ), claimed as (
          insert into job_alert_state (job_id, deadman_deadline)
          select id, deadline from due where deadline <= ${now}
          on conflict (job_id) do update set deadman_deadline = excluded.deadman_deadline
            where job_alert_state.deadman_deadline is distinct from excluded.deadman_deadline
          returning job_id
        )
        select due.* from due join claimed on claimed.job_id = due.id`,
  )
  for (const job of due) {
    const deadline = toDate(job.deadline)!
    await raiseAlert(
      {
        orgId: job.org_id,
        jobId: job.id,
        createdBy: job.created_by,
        scope: job.scope,
        kind: 'deadman',
        title: `${job.name} has not succeeded within ${job.window}`,
        body: `No run of ${job.name} succeeded in the ${job.window} before ${deadline.toISOString()} (its expectSuccessWithin). The scheduler may have been down, or its runs skipped or failing.`,
      },
      db,
    ).catch((err: unknown) => logger.error({ err, jobId: job.id }, 'could not raise a dead-man alert'))
  }
  return due.map((j) => j.id)
}
