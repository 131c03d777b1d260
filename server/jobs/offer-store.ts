/** SQL for a job's pending transfer offer (decision 0512). No rules here: transfer-offers.ts decides. */
import { eq, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { jobs, jobTransferOffers } from '../db/schema/index.ts'
import { inList, queryRows, toDate } from '../db/sql.ts'

export type OfferRow = typeof jobTransferOffers.$inferSelect

/** Records the offer of a job, replacing the one it had. */
export async function upsertOffer(offer: OfferRow, db: Db = getDb()): Promise<void> {
  const { toUserId, offeredBy, jobVersion, offeredAt } = offer
  await db.insert(jobTransferOffers).values(offer).onConflictDoUpdate({
    target: jobTransferOffers.jobId,
    set: { toUserId, offeredBy, jobVersion, offeredAt },
  })
}

/** The job's offer, locked for the caller's transaction when asked. */
export async function findOffer(
  jobId: string,
  options: { lock?: boolean } = {},
  db: Db = getDb(),
): Promise<OfferRow | undefined> {
  const query = db.select().from(jobTransferOffers).where(eq(jobTransferOffers.jobId, jobId))
  const rows = options.lock ? await query.for('update') : await query
  return rows[0]
}

export async function deleteOffer(jobId: string, db: Db = getDb()): Promise<void> {
  await db.delete(jobTransferOffers).where(eq(jobTransferOffers.jobId, jobId))
}

export type OfferPeopleRow = OfferRow & {
  toName: string
  toEmail: string
  byName: string | null
  byEmail: string | null
}

/** The job's offer with the names of whom it is to and who made it. */
export async function readOfferWithPeople(
  jobId: string,
  db: Db = getDb(),
): Promise<OfferPeopleRow | undefined> {
  const [row] = await queryRows<{
    to_user_id: string
    offered_by: string | null
    job_version: number
    offered_at: unknown
    to_name: string
    to_email: string
    by_name: string | null
    by_email: string | null
  }>(
    db,
    sql`select o.to_user_id, o.offered_by, o.job_version, o.offered_at,
          t.name as to_name, t.email as to_email, b.name as by_name, b.email as by_email
        from ${jobTransferOffers} o
        join "user" t on t.id = o.to_user_id
        left join "user" b on b.id = o.offered_by
        where o.job_id = ${jobId}`,
  )
  if (!row) return undefined
  return {
    jobId,
    toUserId: row.to_user_id,
    offeredBy: row.offered_by,
    jobVersion: row.job_version,
    offeredAt: toDate(row.offered_at)!,
    toName: row.to_name,
    toEmail: row.to_email,
    byName: row.by_name,
    byEmail: row.by_email,
  }
}

/** An offer as the jobs list marks it: whom it waits for. */
export type ListedOffer = { toMe: boolean; toName: string }

/**
 * The standing offers among `jobIds` that `viewer` is shown, by job: every one to an admin, only
 * those made to them to anyone else (as the job page shows them). A lapsed offer is left out: it
 * can no longer be accepted, and its job page says so.
 */
export async function listStandingOffers(
  jobIds: string[],
  viewer: { userId: string; isAdmin: boolean },
  db: Db = getDb(),
): Promise<Record<string, ListedOffer>> {
  if (jobIds.length === 0) return {}
  const rows = await queryRows<{ job_id: string; to_user_id: string; to_name: string }>(
    db,
    sql`select o.job_id, o.to_user_id, t.name as to_name
        from ${jobTransferOffers} o
        join ${jobs} j on j.id = o.job_id and j.version = o.job_version
        join "user" t on t.id = o.to_user_id
        where o.job_id in ${inList(jobIds)}
          ${viewer.isAdmin ? sql`` : sql`and o.to_user_id = ${viewer.userId}`}`,
  )
  return Object.fromEntries(
    rows.map((r) => [r.job_id, { toMe: r.to_user_id === viewer.userId, toName: r.to_name }]),
  )
}
