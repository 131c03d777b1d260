/**
 * A transfer to someone other than the admin making it is an offer (decision 0512): a run executes
 * as its job's creator (their key, their personal environments, secrets and MCP servers, their
 * rights), so a job never starts running as a person because someone else said so. The offer names
 * the member; the job keeps its creator (and a departed creator's suspension) until that member
 * accepts. It is for the job as it was when offered: any change to the job after it lapses the
 * offer, and accepting it then is a 409, so nobody accepts text they have not seen.
 */
import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { findMembership, findUser } from '../accounts/store.ts'
import { sendNotice, type Notice } from '../accounts/notices.ts'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { jobsVisibleTo } from '../access/visibility.ts'
import { getDb, type Db } from '../db/client.ts'
import { jobs } from '../db/schema/index.ts'
import { conflict, forbidden, notFound } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { named } from './audit.ts'
import { handOver, signalJobsChanged, type NewOwner } from './hand-over.ts'
import { deleteOffer, findOffer, readOfferWithPeople, upsertOffer, type OfferRow } from './offer-store.ts'
import { findJobRecord, insertAuditRow, readDatabaseNow, type JobRecord } from './store.ts'
import { toJobView, type JobView } from './views.ts'

type PersonView = { id: string; name: string; email: string }

/** A job's pending offer as the job page and the API show it. */
export type TransferOfferView = {
  to: PersonView
  /** The admin who made it; null once their account is gone. */
  offeredBy: PersonView | null
  offeredAt: string
  /** The job's version it was made for. */
  jobVersion: number
  /** The job changed after the offer: it can no longer be accepted, only declined or made again. */
  lapsed: boolean
}

export const AcceptOfferInput = z.strictObject({
  version: z
    .number({ error: 'must be the version of the job you read' })
    .int({ error: 'must be the version of the job you read' })
    .describe('The job version you read: the offer must be for it, so you accept the text you saw'),
})

/**
 * Offers `job` to `owner` in the caller's transaction (replacing an earlier offer) and writes the
 * audit entry; answers the offer as it reads, and whether it is new (to announce once the
 * transaction commits, announceOffers). Offering it again as it stands (the same member, the same
 * version) changes nothing and is not new: the member was told (decision 0525).
 */
export async function offerJob(
  caller: Caller,
  job: JobRecord,
  owner: NewOwner,
  db: Db,
): Promise<{ offer: TransferOfferView; made: boolean }> {
  const standing = await readTransferOffer(job, db)
  if (standing && standing.to.id === owner.id && !standing.lapsed) return { offer: standing, made: false }
  const offeredAt = await readDatabaseNow(db)
  const offer: OfferRow = {
    jobId: job.id,
    toUserId: owner.id,
    offeredBy: caller.userId,
    jobVersion: job.version,
    offeredAt,
  }
  await upsertOffer(offer, db)
  await insertAuditRow(
    {
      jobId: job.id,
      orgId: job.orgId,
      actorId: caller.userId,
      action: 'transfer_offer',
      changes: null,
      note:
        `${named(caller)} offered the job to ${named(owner)}; it runs as ` +
        `${named({ name: job.creatorName, email: job.creatorEmail })} until ${owner.name} accepts`,
    },
    db,
  )
  const view: TransferOfferView = {
    to: owner,
    offeredBy: { id: caller.userId, name: caller.name, email: caller.email },
    offeredAt: offeredAt.toISOString(),
    jobVersion: job.version,
    lapsed: false,
  }
  return { offer: view, made: true }
}

/** Jobs a notice names one by one; more are counted. */
const JOBS_NAMED = 10

/**
 * Tells `owner`, in one notice, of the jobs just offered to them (every shared job of a leaving
 * member is one notice, not one each). A failure is logged: the offers show on the jobs' pages.
 */
export async function announceOffers(
  caller: Caller,
  owner: NewOwner,
  offered: Pick<JobRecord, 'id' | 'orgId' | 'name'>[],
): Promise<void> {
  const [first] = offered
  if (!first) return
  const one = offered.length === 1
  const names = offered.slice(0, JOBS_NAMED).map((job) => job.name)
  const more = offered.length - names.length
  const listed = one ? `the shared job ${first.name}` : `${offered.length} shared jobs: ${names.join(', ')}`
  const notice: Notice = {
    orgId: first.orgId,
    jobId: one ? first.id : null,
    kind: 'transfer_offer',
    title: one
      ? `${caller.name} offered you the job ${first.name}`
      : `${caller.name} offered you ${offered.length} jobs`,
    body:
      `${named(caller)} offered you ${listed}${more > 0 ? ` and ${more} more` : ''}. Nothing changes ` +
      `until you accept ${one ? "it on the job's page" : 'each on its page (the jobs list marks them)'}: ` +
      `from then on ${one ? 'its' : 'their'} runs act as you (on your own model key when it runs as ` +
      `its creator, with your personal environments, secrets and MCP servers). Read what it does first.`,
  }
  await sendNotice(notice, [{ id: owner.id, email: owner.email }]).catch((err: unknown) =>
    logger.error({ err, jobId: notice.jobId }, 'could not tell a member of jobs offered to them'),
  )
}

/**
 * The member a job was offered to makes it theirs: its creator from the next run, a departed
 * creator's suspension lifted. 404 unseen or no offer, 403 for anyone else, 409 when the job
 * changed after the offer or since the caller read it.
 */
export async function acceptTransferOffer(caller: Caller, jobId: string, input: unknown): Promise<JobView> {
  const { version } = parseInput(AcceptOfferInput, input)
  const view = await getDb().transaction(async (tx) => {
    const { job, offer } = await lockOffer(caller, jobId, tx)
    if (offer.toUserId !== caller.userId)
      throw forbidden('Only the member this job was offered to may accept it')
    if (!(await findMembership(caller.userId, job.orgId, tx)))
      throw forbidden('You are no longer a member of this organisation')
    if (offer.jobVersion !== job.version)
      throw conflict(
        'version: the job changed after it was offered to you; ask an admin to offer it again',
        'version',
      )
    if (version !== job.version)
      throw conflict('version: the job changed since you read it; read it again before accepting', 'version')
    const offerer = offer.offeredBy === null ? undefined : await findUser(offer.offeredBy, tx)
    const by = offerer ? named(offerer) : 'an admin'
    const note =
      `${named(caller)} accepted the job ${by} offered, from ` +
      `${named({ name: job.creatorName, email: job.creatorEmail })}; runs use ${caller.name}'s identity from the next run`
    await handOver(caller, job, { id: caller.userId, name: caller.name, email: caller.email }, note, tx)
    return toJobView((await findJobRecord(eq(jobs.id, jobId), {}, tx))!, caller)
  })
  await signalJobsChanged()
  return view
}

/**
 * Clears a job's offer: the member it names declines it, or an admin withdraws it. The job stays
 * as it was. 404 unseen or no offer, 403 for anyone else.
 */
export async function declineTransferOffer(caller: Caller, jobId: string): Promise<JobView> {
  return getDb().transaction(async (tx) => {
    const { job, offer } = await lockOffer(caller, jobId, tx)
    const declining = offer.toUserId === caller.userId
    if (!declining && !isOrgAdmin(caller))
      throw forbidden('Only the member this job was offered to, or an admin, may decline the offer')
    await deleteOffer(jobId, tx)
    await insertAuditRow(
      {
        jobId,
        orgId: job.orgId,
        actorId: caller.userId,
        action: 'transfer_decline',
        changes: null,
        note: declining
          ? `${named(caller)} declined the job offered to them`
          : `${named(caller)} withdrew the offer of the job`,
      },
      tx,
    )
    return toJobView(job, caller)
  })
}

/** The pending offer of a job the caller can see (null when it has none); 404 for a job they cannot. */
export async function getTransferOffer(caller: Caller, jobId: string): Promise<TransferOfferView | null> {
  const job = await findJobRecord(and(eq(jobs.id, jobId), jobsVisibleTo(caller))!)
  if (!job) throw notFound(`No job with id ${jobId}`)
  return readTransferOffer(job)
}

/** The job's pending offer; null when it has none. */
export async function readTransferOffer(
  job: { id: string; version: number },
  db: Db = getDb(),
): Promise<TransferOfferView | null> {
  const row = await readOfferWithPeople(job.id, db)
  if (!row) return null
  return {
    to: { id: row.toUserId, name: row.toName, email: row.toEmail },
    offeredBy:
      row.offeredBy && row.byName !== null && row.byEmail !== null
        ? { id: row.offeredBy, name: row.byName, email: row.byEmail }
        : null,
    offeredAt: row.offeredAt.toISOString(),
    jobVersion: row.jobVersion,
    lapsed: row.jobVersion !== job.version,
  }
}

/** The job the caller can see and its offer, both locked; 404 for an unseen job or one not offered. */
async function lockOffer(caller: Caller, jobId: string, db: Db) {
  const job = await findJobRecord(and(eq(jobs.id, jobId), jobsVisibleTo(caller))!, { lock: true }, db)
  if (!job) throw notFound(`No job with id ${jobId}`)
  const offer = await findOffer(jobId, { lock: true }, db)
  if (!offer) throw notFound(`Job ${jobId} is not offered to anyone`)
  return { job, offer }
}
