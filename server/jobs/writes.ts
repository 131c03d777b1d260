/**
 * The one door for every job write (invariant 5). The HTTP API, the pages, job files and the agent
 * tool all end here: the same zod schema, the same access check, the row and its audit entry in one
 * transaction, and a wake-up for the schedulers after it commits.
 */
import { and, eq } from 'drizzle-orm'
import { findMembership } from '../accounts/store.ts'
import { canEditJob, canUseSharedKey } from '../access/rules.ts'
import { jobsVisibleTo } from '../access/visibility.ts'
import { viaNote } from '../access/caller.ts'
import type { Caller } from '../auth/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { jobs } from '../db/schema/index.ts'
import { HttpError, badRequest, conflict, forbidden, notFound } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { notifyJobsChanged } from '../db/signal.ts'
import { creationChanges } from './audit.ts'
import { isValidTimezone } from '../cron/cron.ts'
import { planJobChange } from './plan-change.ts'
import { JobCreateInput, JobUpdateInput } from './schema.ts'
import {
  deleteJobRow,
  findJobRecord,
  insertAuditRow,
  insertJobRow,
  isUniqueViolation,
  readDatabaseNow,
  updateJobRow,
  type JobRecord,
} from './store.ts'
import { toJobFileView, toJobView, type JobView } from './views.ts'
import { checkJobFileSize } from './job-file.ts'
import { checkEnabledJobQuota, checkJobCountQuota } from './quota.ts'
import { checkJobSkills } from './skill-refs.ts'
import { checkHarness, nextRunAhead } from './field-schemas.ts'
import { checkEmailTargets } from './notify-members.ts'
import { foldScheduleKeys } from './schedule-keys.ts'
import { assertAuditAllowance } from '../accounts/audit-allowance.ts'

export type WriteOptions = {
  /** The version the caller last saw; a different stored version is a 409. */
  ifMatch?: number
  /** Extra context for the audit trail ("saved as jobs/x.md"). */
  note?: string
  /** See JobChangeContext.liftsSuspension. Default true. */
  liftsSuspension?: boolean
}

/** Creates a job owned by the caller in their active organisation. 409 `name` when it is taken. */
export async function createJobFrom(
  caller: Caller,
  input: unknown,
  options: WriteOptions = {},
): Promise<JobView> {
  const data = parseInput(JobCreateInput, foldScheduleKeys(input))
  if (data.runAs === 'shared') {
    if (data.scope === 'personal') {
      throw badRequest('runAs: "shared" is only for shared jobs; a personal job runs as its creator', 'runAs')
    }
    if (!canUseSharedKey(caller, { orgId: caller.orgId, scope: data.scope })) {
      throw new HttpError(
        403,
        'forbidden',
        "runAs: only admins and owners may spend the organisation's key",
        'runAs',
      )
    }
  }
  checkHarness(data)
  await checkEmailTargets(data.notify, { orgId: caller.orgId, createdBy: caller.userId }, getDb())
  // Its audit row holds the whole definition: a person's creates fill the trail at a bounded rate.
  await assertAuditAllowance(caller.userId)
  const { name, scope, timezone: givenZone, ...definition } = data
  const timezone =
    givenZone ?? (caller.timezone && isValidTimezone(caller.timezone) ? caller.timezone : 'UTC')
  const id = newId('job')
  let view: JobView
  try {
    view = await getDb().transaction(async (tx) => {
      await checkJobSkills(caller.orgId, definition.skills, null, tx)
      const now = await readDatabaseNow(tx)
      const nextRunAt = nextRunAhead({ ...definition, timezone }, now)
      await checkJobCountQuota(caller.orgId, tx)
      if (definition.enabled) await checkEnabledJobQuota(caller.orgId, null, tx)
      // Identity and organisation come from the session, never from the input (invariant 4).
      const row = { id, orgId: caller.orgId, createdBy: caller.userId, name, scope, timezone, ...definition }
      await insertJobRow({ ...row, nextRunAt, createdAt: now, updatedAt: now }, tx)
      await insertAuditRow(
        {
          jobId: id,
          orgId: caller.orgId,
          actorId: caller.userId,
          action: 'create',
          changes: creationChanges(row),
          note: auditNote(caller, options.note),
        },
        tx,
      )
      const created = toJobView(await mustFind(id, tx), caller)
      checkJobFileSize(toJobFileView(created))
      return created
    })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const where = scope === 'shared' ? 'a shared job in this organisation' : 'one of your personal jobs'
    throw conflict(`name: "${name}" is already the name of ${where}; pick another name`, 'name')
  }
  await signalJobsChanged()
  return view
}

/** Changes a job the caller may edit: update, pause, resume, or a job file's full replace. */
export async function changeJobFrom(
  caller: Caller,
  id: string,
  input: unknown,
  options: WriteOptions = {},
): Promise<JobView> {
  const change = parseInput(JobUpdateInput, foldScheduleKeys(input))
  // Its audit row holds what changed, before and after (decision 0500).
  await assertAuditAllowance(caller.userId)
  const { view, changed } = await getDb().transaction(async (tx) => {
    const job = await lockEditableJob(caller, id, options.ifMatch, tx)
    await checkJobSkills(job.orgId, change.skills, job.skills, tx)
    if (change.notify !== undefined) await checkEmailTargets(change.notify, job, tx)
    const now = await readDatabaseNow(tx)
    const creatorIsMember = change.enabled !== true || (await isMember(job.createdBy, job.orgId, tx))
    const plan = planJobChange({
      caller,
      job,
      change,
      now,
      creatorIsMember,
      liftsSuspension: options.liftsSuspension ?? true,
    })
    if (!plan) return { view: toJobView(job, caller), changed: false }
    const wasActive = job.enabled && job.suspendedReason === null
    const suspended = plan.set.suspendedReason === undefined ? job.suspendedReason : plan.set.suspendedReason
    const willBeActive = (plan.set.enabled ?? job.enabled) && suspended === null
    if (willBeActive && !wasActive) await checkEnabledJobQuota(job.orgId, id, tx)
    await updateJobRow(id, plan.set, tx)
    const note = auditNote(caller, plan.note, options.note)
    await insertAuditRow(
      {
        jobId: id,
        orgId: job.orgId,
        actorId: caller.userId,
        action: plan.action,
        changes: plan.changes,
        note,
      },
      tx,
    )
    const changedView = toJobView(await mustFind(id, tx), caller)
    checkJobFileSize(toJobFileView(changedView))
    return { view: changedView, changed: true }
  })
  if (changed) await signalJobsChanged()
  return view
}

/** Deletes a job the caller may edit; its runs go with it, its audit trail stays. */
export async function removeJob(caller: Caller, id: string, options: WriteOptions = {}): Promise<void> {
  await getDb().transaction(async (tx) => {
    const job = await lockEditableJob(caller, id, options.ifMatch, tx)
    await deleteJobRow(id, tx)
    await insertAuditRow(
      {
        jobId: id,
        orgId: job.orgId,
        actorId: caller.userId,
        action: 'delete',
        changes: { name: { from: job.name, to: null } },
        note: auditNote(caller, options.note),
      },
      tx,
    )
  })
  await signalJobsChanged()
}

/** The audit entry's note: the given context, and the access token the caller acts through. */
const auditNote = (caller: Caller, ...notes: (string | null | undefined)[]) =>
  [...notes, viaNote(caller)].filter(Boolean).join('; ') || null

/** The job, locked for this transaction, if the caller may edit it: else 404 (unseen) or 403. */
async function lockEditableJob(caller: Caller, id: string, ifMatch: number | undefined, db: Db) {
  const job = await findJobRecord(and(eq(jobs.id, id), jobsVisibleTo(caller))!, { lock: true }, db)
  if (!job) throw notFound(`No job with id ${id}`)
  if (!canEditJob(caller, job)) {
    throw forbidden('Only the creator of this shared job and organisation admins may change it')
  }
  if (ifMatch !== undefined && ifMatch !== job.version) {
    throw conflict(
      `Someone else changed this job while you were editing (you edited version ${ifMatch}, it is now ` +
        `version ${job.version}). Reload it to see their changes, then make yours again.`,
      'version',
    )
  }
  return job
}

async function mustFind(id: string, db: Db): Promise<JobRecord> {
  const record = await findJobRecord(eq(jobs.id, id), {}, db)
  if (!record) throw new Error(`job ${id} vanished inside its own transaction`)
  return record
}

async function isMember(userId: string, orgId: string, db: Db): Promise<boolean> {
  return (await findMembership(userId, orgId, db)) !== undefined
}

/** Wakes the schedulers. The write has committed, so a failed NOTIFY is logged, not reported. */
async function signalJobsChanged(): Promise<void> {
  try {
    await notifyJobsChanged()
  } catch (err) {
    logger.warn({ err }, 'could not notify schedulers of a job change; they will notice within 30 s')
  }
}
