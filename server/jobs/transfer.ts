/**
 * Ownership transfer: an admin hands a shared job, or every shared job of a (leaving) member, to a
 * member (decisions 0073 and 0512). To themselves it is immediate: they take the job over, as they
 * would by rewriting it. To anyone else it is an offer (transfer-offers.ts) the member accepts or
 * declines; until then the job keeps its creator, and stays paused if it paused because they left.
 * Each job gets an audit entry in the same transaction.
 */
import { and, asc, count, eq } from 'drizzle-orm'
import { z } from 'zod'
import { assertAuditAllowance } from '../accounts/audit-allowance.ts'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { jobsVisibleTo } from '../access/visibility.ts'
import { getDb, type Db } from '../db/client.ts'
import { jobs, member, user } from '../db/schema/index.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { named } from './audit.ts'
import {
  findNewOwner,
  handOver,
  mustBeAdmin,
  signalJobsChanged,
  type NewOwner,
  type Person,
} from './hand-over.ts'
import { findJobRecord, selectJobRecords, type JobRecord } from './store.ts'
import { announceOffers, offerJob, type TransferOfferView } from './transfer-offers.ts'
import { toJobView, type JobView } from './views.ts'

export type { Person } from './hand-over.ts'

export const TransferInput = z.strictObject({
  toUserId: z
    .string({ error: 'must be the id of a member of this organisation' })
    .min(1, { error: 'must be the id of a member of this organisation' })
    .describe('The member the job(s) go to: yourself takes them over now, anyone else is offered them'),
})

/** `taken_over`: the caller is the creator now; `offered`: the member named must accept first. */
export type TransferOutcome = 'taken_over' | 'offered'

export type TransferResult =
  { outcome: 'taken_over'; job: JobView } | { outcome: 'offered'; job: JobView; offer: TransferOfferView }

/**
 * Hands one shared job to a member: the caller takes it over, anyone else is offered it.
 * 404 unseen, 403 for non-admins, 400 naming the field.
 */
export async function transferJob(caller: Caller, jobId: string, input: unknown): Promise<TransferResult> {
  const { toUserId } = parseInput(TransferInput, input)
  mustBeAdmin(caller)
  await assertAuditAllowance(caller.userId)
  const { result, owner, offeredAnew } = await getDb().transaction(async (tx) => {
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
    const { offered } = await transferOne(caller, job, owner, tx)
    const view = toJobView((await findJobRecord(eq(jobs.id, jobId), {}, tx))!, caller)
    const result: TransferResult = offered
      ? { outcome: 'offered', job: view, offer: offered.offer }
      : { outcome: 'taken_over', job: view }
    return { result, owner, offeredAnew: offered?.made ? [job] : [] }
  })
  if (result.outcome === 'taken_over') await signalJobsChanged()
  else await announceOffers(caller, owner, offeredAnew)
  return result
}

/**
 * Hands every shared job `fromUserId` owns in the caller's organisation to a member (the owner may
 * already have left): the caller takes them over, anyone else is offered each. Personal jobs are
 * not touched: admins cannot see them.
 */
export async function transferMemberJobs(
  caller: Caller,
  fromUserId: string,
  input: unknown,
): Promise<{ outcome: TransferOutcome; jobs: JobView[] }> {
  const { toUserId } = parseInput(TransferInput, input)
  mustBeAdmin(caller)
  if (!fromUserId) throw badRequest('fromUserId: must name whose jobs to transfer', 'fromUserId')
  if (toUserId === fromUserId)
    throw badRequest('toUserId: must be someone other than the current owner', 'toUserId')
  await assertAuditAllowance(caller.userId)
  const outcome: TransferOutcome = toUserId === caller.userId ? 'taken_over' : 'offered'
  const { done, owner, offeredAnew } = await getDb().transaction(async (tx) => {
    const owner = await findNewOwner(caller, toUserId, tx)
    const owned = and(eq(jobs.orgId, caller.orgId), eq(jobs.createdBy, fromUserId), eq(jobs.scope, 'shared'))!
    const ids = (await selectJobRecords(owned, tx)).map((job) => job.id)
    const done: JobRecord[] = []
    const offeredAnew: JobRecord[] = []
    for (const id of ids) {
      // Locked one by one, re-checked under the lock: a job someone changed meanwhile may have a new owner.
      const job = await findJobRecord(and(eq(jobs.id, id), owned)!, { lock: true }, tx)
      if (!job) continue
      const { offered } = await transferOne(caller, job, owner, tx)
      if (offered?.made) offeredAnew.push(job)
      done.push((await findJobRecord(eq(jobs.id, id), {}, tx))!)
    }
    return { done, owner, offeredAnew }
  })
  // One notice for them all: a leaving member's jobs are one mail to whom they are offered, not one each.
  if (outcome === 'offered') await announceOffers(caller, owner, offeredAnew)
  else if (done.length) await signalJobsChanged()
  return { outcome, jobs: done.map((record) => toJobView(record, caller)) }
}

/** The caller takes the job over, or offers it to someone else (answering the offer, and whether it is new). */
async function transferOne(
  caller: Caller,
  job: JobRecord,
  owner: NewOwner,
  db: Db,
): Promise<{ offered?: Awaited<ReturnType<typeof offerJob>> }> {
  if (owner.id !== caller.userId) return { offered: await offerJob(caller, job, owner, db) }
  const from = named({ name: job.creatorName, email: job.creatorEmail })
  const note = `${named(caller)} took the job over from ${from}; runs use ${caller.name}'s identity from the next run`
  await handOver(caller, job, owner, note, db)
  return {}
}

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
