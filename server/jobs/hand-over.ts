/**
 * Making someone a shared job's creator, the one step both doors of a transfer end in: an admin
 * taking a job over (jobs/transfer.ts) and a member accepting a job offered to them
 * (jobs/transfer-offers.ts). From the next run on, the job runs with the new creator's identity
 * (and, for `runAs: creator`, their key).
 */
import { findMembership, findUser } from '../accounts/store.ts'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { nextRun } from '../cron/cron.ts'
import type { Db } from '../db/client.ts'
import { notifyJobsChanged } from '../db/signal.ts'
import { badRequest, forbidden } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { deleteOffer } from './offer-store.ts'
import type { AuditChanges, JobRecord, NewJobRow } from './store.ts'
import { insertAuditRow, readDatabaseNow, updateJobRow } from './store.ts'

export type Person = { userId: string; name: string; email: string }
export type NewOwner = { id: string; name: string; email: string }

export function mustBeAdmin(caller: Caller) {
  if (!isOrgAdmin(caller)) throw forbidden("Only the organisation's admins and owners may transfer jobs")
}

/** The member `userId` of the caller's organisation; 400 naming `toUserId` for anyone else. */
export async function findNewOwner(caller: Caller, userId: string, db: Db): Promise<NewOwner> {
  const [person, membership] = await Promise.all([
    findUser(userId, db),
    findMembership(userId, caller.orgId, db),
  ])
  if (!person || !membership) {
    throw badRequest('toUserId: is not a member of this organisation', 'toUserId')
  }
  return { id: person.id, name: person.name, email: person.email }
}

/**
 * Makes `owner` the job's creator, lifts a departed creator's suspension, ends any offer of the job
 * and writes the audit entry (`note`, by `actor`), in the caller's transaction.
 */
export async function handOver(actor: Caller, job: JobRecord, owner: NewOwner, note: string, db: Db) {
  const now = await readDatabaseNow(db)
  const changes: AuditChanges = { createdBy: { from: job.createdBy, to: owner.id } }
  const set: Partial<NewJobRow> = { createdBy: owner.id, version: job.version + 1, updatedAt: now }
  const creatorLeft = !(await findMembership(job.createdBy, job.orgId, db))
  if (job.suspendedReason !== null && creatorLeft) {
    changes.suspendedReason = { from: job.suspendedReason, to: null }
    Object.assign(set, { suspendedReason: null, consecutiveFailures: 0, stateUpdatedAt: now })
    set.nextRunAt = job.enabled ? nextRun(job.schedule, { after: now, timezone: job.timezone }) : null
  }
  await updateJobRow(job.id, set, db)
  await deleteOffer(job.id, db)
  await insertAuditRow(
    { jobId: job.id, orgId: job.orgId, actorId: actor.userId, action: 'transfer', changes, note },
    db,
  )
}

/** Wakes the schedulers (a lifted suspension has a next run). A failed NOTIFY is logged only. */
export async function signalJobsChanged(): Promise<void> {
  try {
    await notifyJobsChanged()
  } catch (err) {
    logger.warn({ err }, 'could not notify schedulers of a job transfer; they will notice within 30 s')
  }
}
