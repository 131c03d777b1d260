/**
 * Organisations their owners deleted (decision 0521). better-auth deletes the organisation's rows
 * (its jobs, runs, chats, environments' records go by cascade); this keeps what must outlive them:
 * who deleted it, counted among their organisations for a day, and which environments it had, so
 * every instance removes their folders and snapshots from its disk.
 */
import { sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'

/** How long a deletion is kept: an instance started within it still removes the folders it holds. */
const KEPT_DAYS = 7

/**
 * Organisations `userId` deleted in the last 24 hours, as a scalar subquery. One whose delete did
 * not happen (recorded before it, then refused) still exists and is not counted here.
 */
export const deletedTodayBy = (userId: string): SQL =>
  sql`(select count(*)::int from organization_deletions d
        where d.deleted_by = ${userId} and d.deleted_at > now() - interval '24 hours'
          and not exists (select 1 from organization o where o.id = d.org_id))`

/** Records that `userId` is deleting `orgId`, with the ids of its environments, before it goes. */
export async function recordOrganizationDeletion(orgId: string, userId: string, db: Db = getDb()) {
  await db.execute(
    sql`insert into organization_deletions (org_id, deleted_by, environment_ids)
        values (${orgId}, ${userId},
          (select coalesce(jsonb_agg(id), '[]'::jsonb) from environments where org_id = ${orgId}))
        on conflict (org_id) do update set deleted_by = excluded.deleted_by,
          environment_ids = excluded.environment_ids, deleted_at = now()`,
  )
}

export type DeletedOrganization = { orgId: string; environmentIds: string[] }

/** The organisations deleted in the last week (and gone: not a delete that was refused). */
export async function listDeletedOrganizations(db: Db = getDb()): Promise<DeletedOrganization[]> {
  const rows = await queryRows<{ org_id: string; environment_ids: string[] }>(
    db,
    sql`select d.org_id, d.environment_ids from organization_deletions d
        where not exists (select 1 from organization o where o.id = d.org_id)
        order by d.deleted_at`,
  )
  return rows.map((r) => ({ orgId: r.org_id, environmentIds: r.environment_ids }))
}

/** Forgets deletions older than a week (retention, hourly). */
export async function deleteOldOrganizationDeletions(now: SQL, db: Db): Promise<void> {
  await db.execute(
    sql`delete from organization_deletions where deleted_at < ${now} - ${KEPT_DAYS} * interval '1 day'`,
  )
}
