/** SQL for self-made skills and their audit trail. */
import { and, asc, count, desc, eq, lt, sql } from 'drizzle-orm'
import { getDb, type Db } from '../../db/client.ts'
import { user } from '../../db/schema/auth.ts'
import { skillAudit, skills } from '../../db/schema/environments.ts'

export type SkillRow = typeof skills.$inferSelect

export async function findSkill(orgId: string, name: string, db: Db = getDb()) {
  const [row] = await db
    .select()
    .from(skills)
    .where(and(eq(skills.orgId, orgId), eq(skills.name, name)))
  return row
}

export async function findSkillById(id: string, db: Db = getDb()) {
  const [row] = await db.select().from(skills).where(eq(skills.id, id))
  return row
}

export async function listSkills(orgId: string, db: Db = getDb()) {
  return db
    .select()
    .from(skills)
    .where(eq(skills.orgId, orgId))
    .orderBy(sql`${skills.status} <> 'pending_approval'`, asc(skills.name))
}

/**
 * Inserts or replaces a skill's text; any change sends it back to pending, with the writer as its
 * author (authorship follows the text). Returns the row when it changed, else undefined.
 */
export async function upsertSkill(
  row: Pick<SkillRow, 'id' | 'orgId' | 'name' | 'description' | 'content' | 'createdBy' | 'origin'>,
  db: Db = getDb(),
) {
  const [stored] = await db
    .insert(skills)
    .values({ ...row, status: 'pending_approval' })
    .onConflictDoUpdate({
      target: [skills.orgId, skills.name],
      set: {
        description: row.description,
        content: row.content,
        origin: row.origin,
        createdBy: row.createdBy,
        status: 'pending_approval',
        decidedBy: null,
        decidedAt: null,
        updatedAt: sql`now()`,
      },
      setWhere: sql`${skills.content} <> excluded.content or ${skills.description} <> excluded.description`,
    })
    .returning()
  return stored
}

/** The skill's text is still the version seen at `updatedAt`. */
const isVersion = (updatedAt: Date) =>
  // Timestamps are kept in microseconds; the Date the caller saw has milliseconds.
  sql`date_trunc('milliseconds', ${skills.updatedAt}) = ${updatedAt.toISOString()}::timestamptz`

export async function decideSkill(
  id: string,
  status: 'approved' | 'rejected',
  by: string,
  expectedUpdatedAt: Date,
  db: Db = getDb(),
) {
  const [row] = await db
    .update(skills)
    .set({ status, decidedBy: by, decidedAt: sql`now()` })
    .where(and(eq(skills.id, id), isVersion(expectedUpdatedAt)))
    .returning()
  return row
}

export async function countSkills(orgId: string, db: Db = getDb()) {
  const [row] = await db.select({ n: count() }).from(skills).where(eq(skills.orgId, orgId))
  return row?.n ?? 0
}

/**
 * Deletes the skill if it is still as `seen` (same text, same status: who may delete depends on
 * the status). Returns it, or undefined when it changed or went meanwhile.
 */
export async function deleteSkillRow(seen: Pick<SkillRow, 'id' | 'status' | 'updatedAt'>, db: Db = getDb()) {
  const [row] = await db
    .delete(skills)
    .where(and(eq(skills.id, seen.id), eq(skills.status, seen.status), isVersion(seen.updatedAt)))
    .returning()
  return row
}

export async function insertSkillAudit(row: typeof skillAudit.$inferInsert, db: Db = getDb()) {
  await db.insert(skillAudit).values(row)
}

/** A page of the skill's audit trail, newest first: at most `limit` entries older than `beforeId`. */
export async function selectSkillAudit(
  skillId: string,
  page: { limit: number; beforeId?: number },
  db: Db = getDb(),
) {
  return db
    .select({ entry: skillAudit, actorName: user.name })
    .from(skillAudit)
    .leftJoin(user, eq(user.id, skillAudit.actorId))
    .where(
      and(
        eq(skillAudit.skillId, skillId),
        page.beforeId === undefined ? undefined : lt(skillAudit.id, page.beforeId),
      ),
    )
    .orderBy(desc(skillAudit.id))
    .limit(page.limit)
}

export async function countSkillAudit(skillId: string, db: Db = getDb()) {
  const [row] = await db.select({ n: count() }).from(skillAudit).where(eq(skillAudit.skillId, skillId))
  return row?.n ?? 0
}
