/**
 * Ownership transfer: an admin hands a shared job, or every shared job of a (leaving) member, to
 * another member in one step. The new owner becomes the job's creator, so from the next run on the
 * job runs with their identity (and, for `runAs: creator`, their key); each job gets an audit
 * entry in the same transaction. A job paused because its creator left resumes with the new owner.
 */
import { and, asc, count, eq } from 'drizzle-orm'
import { z } from 'zod'
import { findMembership, findUser } from '../accounts/store.ts'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { jobsVisibleTo } from '../access/visibility.ts'
import { nextRun } from '../cron/cron.ts'
import { getDb, type Db } from '../db/client.ts'
import { jobs, member, user } from '../db/schema/index.ts'
import { badRequest, forbidden, notFound } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { notifyJobsChanged } from '../db/signal.ts'
import type { AuditChanges, JobRecord, NewJobRow } from './store.ts'
import { findJobRecord, insertAuditRow, readDatabaseNow, selectJobRecords, updateJobRow } from './store.ts'
import { toJobView, type JobView } from './views.ts'

export const TransferInput = z.strictObject({
  toUserId: z
    .string({ error: 'must be the id of a member of this organisation' })
    .min(1, { error: 'must be the id of a member of this organisation' })
    .describe('The member who becomes the owner (creator) of the job(s)'),
})

type NewOwner = { id: string; name: string; email: string }

/** Hands one shared job to another member. 404 unseen, 403 for non-admins, 400 naming the field. */
export async function transferJob(caller: Caller, jobId: string, input: unknown): Promise<JobView> {
  const { toUserId } = parseInput(TransferInput, input)
  mustBeAdmin(caller)
  const view = await getDb().transaction(async (tx) => {
    const job = await findJobRecord(and(eq(jobs.id, jobId), jobsVisibleTo(caller))!, { lock: true }, tx)
    if (!job) throw notFound(`No job with id ${jobId}`)
    if (job.scope !== 'shared') {
      throw badRequest(
        'jobId: only shared jobs can be transferred; a personal job stays its creator’s',
        'jobId',
      )
    }
    const owner = await findNewOwner(caller, toUserId, tx)
    if (job.createdBy === owner.id)
      throw badRequest(`toUserId: ${owner.name} already owns this job`, 'toUserId')
    await handOver(caller, job, owner, tx)
    return toJobView((await findJobRecord(eq(jobs.id, jobId), {}, tx))!, caller)
  })
  await signalJobsChanged()
  return view
}

/**
 * Hands every shared job `fromUserId` owns in the caller's organisation to another member (the
 * member may already have left). Personal jobs are not touched: admins cannot see them.
 */
export async function transferMemberJobs(
  caller: Caller,
  fromUserId: string,
  input: unknown,
): Promise<{ transferred: JobView[] }> {
  const { toUserId } = parseInput(TransferInput, input)
  mustBeAdmin(caller)
  if (!fromUserId) throw badRequest('fromUserId: must name whose jobs to transfer', 'fromUserId')
  if (toUserId === fromUserId)
    throw badRequest('toUserId: must be someone other than the current owner', 'toUserId')
  const transferred = await getDb().transaction(async (tx) => {
    const owner = await findNewOwner(caller, toUserId, tx)
    const owned = and(eq(jobs.orgId, caller.orgId), eq(jobs.createdBy, fromUserId), eq(jobs.scope, 'shared'))!
    const ids = (await selectJobRecords(owned, tx)).map((job) => job.id)
    const done: JobRecord[] = []
    for (const id of ids) {
      // Locked one by one, re-checked under the lock: a job someone changed meanwhile may have a new owner.
      const job = await findJobRecord(and(eq(jobs.id, id), owned)!, { lock: true }, tx)
      if (!job) continue
      await handOver(caller, job, owner, tx)
      done.push((await findJobRecord(eq(jobs.id, id), {}, tx))!)
    }
    return done
  })
  if (transferred.length) await signalJobsChanged()
  return { transferred: transferred.map((record) => toJobView(record, caller)) }
}

export type Person = { userId: string; name: string; email: string }

/** Who a job can be handed to: the organisation's members, for admins (others get an empty list). */
export async function listTransferTargets(caller: Caller, db: Db = getDb()): Promise<Person[]> {
  if (!isOrgAdmin(caller)) return []
  return db
    .select({ userId: user.id, name: user.name, email: user.email })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, caller.orgId))
    .orderBy(asc(user.name))
}

/** Everyone who owns shared jobs here, members or not, with how many: the "from" of a bulk transfer. */
export async function listSharedJobOwners(
  caller: Caller,
  db: Db = getDb(),
): Promise<(Person & { jobs: number })[]> {
  if (!isOrgAdmin(caller)) return []
  return db
    .select({ userId: user.id, name: user.name, email: user.email, jobs: count(jobs.id) })
    .from(jobs)
    .innerJoin(user, eq(user.id, jobs.createdBy))
    .where(and(eq(jobs.orgId, caller.orgId), eq(jobs.scope, 'shared')))
    .groupBy(user.id, user.name, user.email)
    .orderBy(asc(user.name))
}

function mustBeAdmin(caller: Caller) {
  if (!isOrgAdmin(caller)) throw forbidden("Only the organisation's admins and owners may transfer jobs")
}

async function findNewOwner(caller: Caller, userId: string, db: Db): Promise<NewOwner> {
  const [person, membership] = await Promise.all([
    findUser(userId, db),
    findMembership(userId, caller.orgId, db),
  ])
  if (!person || !membership) {
    throw badRequest('toUserId: is not a member of this organisation', 'toUserId')
  }
  return { id: person.id, name: person.name, email: person.email }
}

/** Makes `owner` the job's creator, lifts a departed creator's suspension, writes the audit entry. */
async function handOver(caller: Caller, job: JobRecord, owner: NewOwner, db: Db) {
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
  await insertAuditRow(
    {
      jobId: job.id,
      orgId: job.orgId,
      actorId: caller.userId,
      action: 'transfer',
      changes,
      note:
        `${caller.name} (${caller.email}) transferred the job from ${job.creatorName} (${job.creatorEmail}) ` +
        `to ${owner.name} (${owner.email}); runs use ${owner.name}'s identity from the next run`,
    },
    db,
  )
}

/** Wakes the schedulers (a lifted suspension has a next run). A failed NOTIFY is logged only. */
async function signalJobsChanged(): Promise<void> {
  try {
    await notifyJobsChanged()
  } catch (err) {
    logger.warn({ err }, 'could not notify schedulers of a job transfer; they will notice within 30 s')
  }
}
