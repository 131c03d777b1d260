/** SQL for the Environments pages: the caller's visible environments and a page of an audit trail. */
import { and, count, desc, eq, lt, or } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { user } from '../db/schema/auth.ts'
import { environmentAudit, environments } from '../db/schema/environments.ts'
import type { EnvironmentRow } from './store.ts'

/**
 * Environments the caller may see in their organisation: their own personal ones and every shared
 * one (the SQL twin of canViewJob on an environment's facts).
 */
export async function selectVisibleEnvironments(
  caller: { orgId: string; userId: string },
  db: Db = getDb(),
): Promise<EnvironmentRow[]> {
  return db
    .select()
    .from(environments)
    .where(
      and(
        eq(environments.orgId, caller.orgId),
        or(eq(environments.scope, 'shared'), eq(environments.createdBy, caller.userId)),
      ),
    )
    .orderBy(environments.name, environments.scope)
}

/** Up to `limit` audit entries older than entry `before` (ids only grow), newest first, with who. */
export async function selectAuditPage(
  environmentId: string,
  page: { before?: number; limit: number },
  db: Db = getDb(),
) {
  const where = [eq(environmentAudit.environmentId, environmentId)]
  if (page.before !== undefined) where.push(lt(environmentAudit.id, page.before))
  return db
    .select({ entry: environmentAudit, actorName: user.name, actorEmail: user.email })
    .from(environmentAudit)
    .leftJoin(user, eq(user.id, environmentAudit.actorId))
    .where(and(...where))
    .orderBy(desc(environmentAudit.id))
    .limit(page.limit)
}

export async function countAudit(environmentId: string, db: Db = getDb()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(environmentAudit)
    .where(eq(environmentAudit.environmentId, environmentId))
  return row?.n ?? 0
}
