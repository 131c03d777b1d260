/** SQL for people's notices (decision 0525). No rules here: notices.ts decides. */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { notifications } from '../db/schema/integrations.ts'
import { inList, queryRows } from '../db/sql.ts'
import { newId } from '../lib/ids.ts'

export type NoticeRow = {
  userId: string
  orgId: string
  jobId: string | null
  kind: string
  title: string
  body: string
}

/**
 * Holds each person's notice lock until `tx` ends, taken in one order so two notices to the same
 * people wait for each other instead of deadlocking: each then sees the other's row.
 */
export async function lockNoticesOf(userIds: string[], tx: Db): Promise<void> {
  for (const id of [...new Set(userIds)].sort()) await lockKey(tx, `notices:${id}`)
}

/** Those of `userIds` who were given a notice, in any organisation, in the last `minutes`. */
export async function noticedWithin(userIds: string[], minutes: number, db: Db): Promise<Set<string>> {
  if (userIds.length === 0) return new Set()
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select distinct user_id from ${notifications}
        where user_id in ${inList(userIds)} and created_at > now() - make_interval(mins => ${minutes})`,
  )
  return new Set(rows.map((r) => r.user_id))
}

export async function insertNotices(rows: NoticeRow[], db: Db): Promise<void> {
  if (rows.length === 0) return
  await db.insert(notifications).values(rows.map((row) => ({ id: newId('ntf'), ...row })))
}

/**
 * Deletes all but the newest `kept` notices of each of `userIds` in `orgId`, read or not: what one
 * organisation sends a person cannot grow their list, or the bell's count, without bound, nor push
 * out what another organisation told them.
 */
export async function keepNewestNotices(
  userIds: string[],
  orgId: string,
  kept: number,
  db: Db,
): Promise<void> {
  if (userIds.length === 0) return
  await db.execute(
    sql`delete from ${notifications} where id in (
          select id from (
            select id, row_number() over (partition by user_id order by created_at desc, id desc) as n
            from ${notifications}
            where org_id = ${orgId} and user_id in ${inList(userIds)}
          ) ranked
          where n > ${kept})`,
  )
}
