/**
 * What deleted runs and chat turns spent on a capped key (decision 0520): the rows a trigger wrote
 * in the transaction that deleted them (drizzle/0034). Every cap that sums spending, or counts
 * runs or turns, over a window reads these beside the live rows, so deleting a job or an
 * organisation gives nothing back.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'

/** Which deleted records: on `keySource`, started at `since` or later, of one organisation, of one kind. */
type Filter = { keySource: 'org' | 'deployment'; since: SQL; orgId?: string; kind?: 'run' | 'turn' }

const where = ({ keySource, since, orgId, kind }: Filter): SQL =>
  sql.join(
    [
      sql`key_source = ${keySource} and started_at >= ${since}`,
      ...(orgId === undefined ? [] : [sql`org_id = ${orgId}`]),
      ...(kind === undefined ? [] : [sql`kind = ${kind}`]),
    ],
    sql` and `,
  )

/** USD the deleted records of `filter` spent, as a scalar subquery. */
export const deletedSpendUsd = (filter: Filter): SQL =>
  sql`(select coalesce(sum(usd), 0) from deleted_spend where ${where(filter)})`

/** How many deleted records `filter` matches, as a scalar subquery. */
export const deletedRecords = (filter: Filter): SQL =>
  sql`(select count(*)::int from deleted_spend where ${where(filter)})`

/** The caps' longest window is a calendar month: a deleted record's spend is kept 32 days. */
export const DELETED_SPEND_KEPT_DAYS = 32

/** Forgets deleted records started before any cap's window (retention, hourly). */
export async function deleteOldDeletedSpend(now: SQL, db: Db): Promise<void> {
  await db.execute(
    sql`delete from deleted_spend where started_at < ${now} - ${DELETED_SPEND_KEPT_DAYS} * interval '1 day'`,
  )
}
