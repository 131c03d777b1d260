/** SQL for a job's pending transfer offer (decision 0512). No rules here: transfer-offers.ts decides. */
import { eq, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { jobTransferOffers } from '../db/schema/index.ts'
import { queryRows, toDate } from '../db/sql.ts'

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
