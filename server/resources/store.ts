/**
 * SQL for workspace files (everything but job files, which live in the jobs table). The service
 * says whose files to touch by passing an owner: a user's personal files or an org's shared ones.
 */
import { and, asc, eq, isNull, like, sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { resources } from '../db/schema/index.ts'
import { escapeLike } from '../jobs/store.ts'

export type ResourceRow = typeof resources.$inferSelect
/** Whose files: one user's personal files in an org, or the org's shared files. */
export type ResourceOwner = { orgId: string; scope: 'personal' | 'shared'; ownerId: string | null }
export type ResourceSummary = {
  path: string
  size: number
  version: number
  updatedAt: Date
  createdBy: string | null
}

function ownedBy(owner: ResourceOwner): SQL {
  return and(
    eq(resources.orgId, owner.orgId),
    eq(resources.scope, owner.scope),
    owner.ownerId === null ? isNull(resources.ownerId) : eq(resources.ownerId, owner.ownerId),
  )!
}

/** The owner's files under `prefix`, without their content, by path. */
export async function selectResourceSummaries(
  owner: ResourceOwner,
  prefix: string,
  db: Db = getDb(),
): Promise<ResourceSummary[]> {
  const rows = await db
    .select({
      path: resources.path,
      size: sql<number>`octet_length(${resources.content})`.mapWith(Number),
      version: resources.version,
      updatedAt: resources.updatedAt,
      createdBy: resources.createdBy,
    })
    .from(resources)
    .where(and(ownedBy(owner), prefix ? like(resources.path, `${escapeLike(prefix)}%`) : undefined))
    .orderBy(asc(resources.path))
  return rows
}

/** One file; with `lock`, its row stays locked until the transaction ends. */
export async function findResourceRow(
  owner: ResourceOwner,
  path: string,
  options: { lock?: boolean } = {},
  db: Db = getDb(),
): Promise<ResourceRow | undefined> {
  const query = db
    .select()
    .from(resources)
    .where(and(ownedBy(owner), eq(resources.path, path)))
  const rows = options.lock ? await query.for('update') : await query
  return rows[0]
}

/**
 * The organisation's files, both scopes: how many, and the bytes they hold as stored (UTF-8; the
 * length is read from each value's header, so a large file is not read to be measured). Read a
 * scope at a time so each query reads one of the partial unique indexes (both lead with org_id):
 * without the scope, none applies and every tenant's rows would be scanned.
 */
export async function orgResourceTotals(
  orgId: string,
  db: Db = getDb(),
): Promise<{ files: number; bytes: number }> {
  const totals = { files: 0, bytes: 0 }
  for (const scope of ['personal', 'shared'] as const) {
    const [row] = await db
      .select({
        files: sql<number>`count(*)::int`,
        bytes: sql<string>`coalesce(sum(octet_length(${resources.content})), 0)`,
      })
      .from(resources)
      .where(and(eq(resources.orgId, orgId), eq(resources.scope, scope)))
    totals.files += row?.files ?? 0
    totals.bytes += Number(row?.bytes ?? 0)
  }
  return totals
}

export async function insertResourceRow(row: typeof resources.$inferInsert, db: Db = getDb()): Promise<void> {
  await db.insert(resources).values(row)
}

export async function updateResourceContent(
  id: string,
  values: { content: string; version: number; updatedBy: string; createdBy: string | null },
  db: Db = getDb(),
): Promise<void> {
  await db
    .update(resources)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(resources.id, id))
}

export async function deleteResourceRow(id: string, db: Db = getDb()): Promise<void> {
  await db.delete(resources).where(eq(resources.id, id))
}
