/** SQL for the Environments pages: the caller's visible environments and a page of an audit trail. */
import { and, count, desc, eq, inArray, lt, or } from 'drizzle-orm'
import { getDb, type Db } from '../../db/client.ts'
import { user } from '../../db/schema/auth.ts'
import { environmentAudit, environments } from '../../db/schema/environments.ts'
import type { AuditRow, EnvironmentRow } from '../store.ts'

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

export type AuditKind = AuditRow['kind']

const ofKinds = (environmentId: string, kinds: AuditKind[] | undefined) => {
  const where = [eq(environmentAudit.environmentId, environmentId)]
  if (kinds) where.push(inArray(environmentAudit.kind, kinds))
  return where
}

/**
 * Up to `limit` audit entries (of `kinds`, default all) older than entry `before` (ids only grow),
 * newest first, with who.
 */
export async function selectAuditPage(
  environmentId: string,
  page: { before?: number; limit: number; kinds?: AuditKind[] },
  db: Db = getDb(),
) {
  const where = ofKinds(environmentId, page.kinds)
  if (page.before !== undefined) where.push(lt(environmentAudit.id, page.before))
  return db
    .select({ entry: environmentAudit, actorName: user.name, actorEmail: user.email })
    .from(environmentAudit)
    .leftJoin(user, eq(user.id, environmentAudit.actorId))
    .where(and(...where))
    .orderBy(desc(environmentAudit.id))
    .limit(page.limit)
}

export async function countAudit(
  environmentId: string,
  kinds?: AuditKind[],
  db: Db = getDb(),
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(environmentAudit)
    .where(and(...ofKinds(environmentId, kinds)))
  return row?.n ?? 0
}
