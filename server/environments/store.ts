/** SQL for environments and their audit trail. */
import { and, count, eq, ne, notLike, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { clipText } from '../lib/text.ts'
import { environmentsFull, isScratchName, MAX_ENVIRONMENTS_PER_ORG } from './environments-quota.ts'
import { environmentAudit, environments } from '../db/schema/environments.ts'
import { addAuditVolume } from '../accounts/audit-allowance.ts'

export type EnvironmentRow = typeof environments.$inferSelect
export type AuditRow = typeof environmentAudit.$inferSelect
export type AuditInsert = typeof environmentAudit.$inferInsert

export async function findEnvironment(
  key: { orgId: string; scope: 'personal' | 'shared'; name: string; createdBy?: string },
  db: Db = getDb(),
): Promise<EnvironmentRow | undefined> {
  const filters = [
    eq(environments.orgId, key.orgId),
    eq(environments.scope, key.scope),
    eq(environments.name, key.name),
  ]
  if (key.scope === 'personal' && key.createdBy) filters.push(eq(environments.createdBy, key.createdBy))
  const [row] = await db
    .select()
    .from(environments)
    .where(and(...filters))
  return row
}

export async function findEnvironmentById(id: string, db: Db = getDb()) {
  const [row] = await db.select().from(environments).where(eq(environments.id, id))
  return row
}

/**
 * Inserts the record unless one exists (two first uses racing); returns the stored row. A new one
 * is counted against the organisation's limit first, first uses in one organisation taking turns
 * on an advisory lock: at once, they would otherwise all count the same last place and all take it.
 *
 * @throws HttpError 403 `quota_exceeded` when the organisation has no room, nothing stored
 */
export async function insertEnvironment(row: typeof environments.$inferInsert, db: Db = getDb()) {
  const key = { orgId: row.orgId, scope: row.scope, name: row.name, createdBy: row.createdBy }
  return db.transaction(async (tx) => {
    if (!isScratchName(row.name)) {
      await lockKey(tx, `environments:${row.orgId}`)
      const existing = await findEnvironment(key, tx)
      if (existing) return existing
      if ((await countCountedEnvironments(row.orgId, tx)) >= MAX_ENVIRONMENTS_PER_ORG)
        throw environmentsFull()
    }
    await tx.insert(environments).values(row).onConflictDoNothing()
    return findEnvironment(key, tx)
  })
}

/** The organisation's environment records the limit counts (scratch ones are not). */
async function countCountedEnvironments(orgId: string, db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(environments)
    .where(
      and(
        eq(environments.orgId, orgId),
        ne(environments.name, 'scratch'),
        notLike(environments.name, 'scratch:%'),
      ),
    )
  return row?.n ?? 0
}

export async function touchEnvironment(id: string, sizeBytes: number | undefined, db: Db = getDb()) {
  await db
    .update(environments)
    .set({ lastActivityAt: sql`now()`, ...(sizeBytes === undefined ? {} : { sizeBytes }) })
    .where(eq(environments.id, id))
}

/**
 * The most of a subject an audit row keeps: the longest command line the policy judges
 * (policy.ts `MAX_COMMAND_LINE`). Subjects come from the environment (a command there reports
 * paths and calls the harness hook): a reported 8 MB path was kept whole in the shared database
 * and in every read of the audit page.
 */
export const MAX_AUDIT_SUBJECT = 64 * 1024

/**
 * Records audit rows, each subject cut to {@link MAX_AUDIT_SUBJECT} saying how long it was, and
 * adds what they hold to their actors' volume of the day (accounts/audit-allowance.ts), in one
 * transaction.
 */
export async function insertAudit(rows: AuditInsert | AuditInsert[], db: Db = getDb()) {
  const values = (Array.isArray(rows) ? rows : [rows]).map((row) => ({
    ...row,
    subject: clipText(row.subject, MAX_AUDIT_SUBJECT),
  }))
  if (values.length === 0) return
  await db.transaction(async (tx) => {
    await tx.insert(environmentAudit).values(values)
    await addAuditVolume(
      tx,
      values.map((row) => ({
        actorId: row.actorId,
        bytes: Buffer.byteLength(row.subject) + Buffer.byteLength(row.reason ?? ''),
      })),
    )
  })
}

/** Stores the lifecycle columns: the bootstrap record, the built hash, the snapshot's hash and time. */
export async function updateLifecycle(
  id: string,
  set: {
    bootstrap?: unknown
    definitionHash?: string | null
    snapshotHash?: string | null
    snapshotAt?: Date | null
  },
  db: Db = getDb(),
) {
  await db.update(environments).set(set).where(eq(environments.id, id))
}

/** Records where the folder lives and where its instance answers now (the address may change on restart). */
export async function recordPlace(
  id: string,
  place: { instanceId: string; instanceUrl: string | null },
  db: Db = getDb(),
) {
  await db.update(environments).set(place).where(eq(environments.id, id))
}

/** Forgets a record (its audit trail stays: it has no foreign key). */
export async function deleteEnvironment(id: string, db: Db = getDb()) {
  await db.delete(environments).where(eq(environments.id, id))
}
