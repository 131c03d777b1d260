/**
 * A job's `skills`: names of self-made skills of its organisation. Saving a job may name only
 * approved ones (a person approved them on the Skills page); a run reads them again and leaves out
 * any that lost approval since (edited, so pending again, or rejected). Both ask here, so the save
 * and the run give the same reasons. Skills belong to the organisation, so every job of it, personal
 * or shared, sees the same ones. Read from the table directly: the skills module (environments/)
 * sits above jobs in the layering.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { skills } from '../db/schema/environments.ts'
import { badRequest } from '../lib/errors.ts'

export type SkillRef = { name: string; status: 'pending_approval' | 'approved' | 'rejected'; content: string }

/** The named skills of an organisation that exist, by name. */
export async function readSkillRefs(
  orgId: string,
  names: readonly string[],
  db: Db = getDb(),
): Promise<Map<string, SkillRef>> {
  if (names.length === 0) return new Map()
  const rows = await db
    .select({ name: skills.name, status: skills.status, content: skills.content })
    .from(skills)
    .where(and(eq(skills.orgId, orgId), inArray(skills.name, [...names])))
  return new Map(rows.map((row) => [row.name, row]))
}

/** Why the skill `name` cannot be used now; null when it is approved. */
export function skillRefProblem(name: string, ref: SkillRef | undefined): string | null {
  if (!ref) return `there is no skill "${name}" in this organisation`
  if (ref.status === 'pending_approval')
    return `"${name}" waits for a person's approval on the Skills page, as every new or edited skill does`
  if (ref.status === 'rejected') return `"${name}" was rejected on the Skills page`
  return null
}

/**
 * Refuses a save naming a skill that is not approved. Names the job already had are not asked
 * again: a skill that lost approval since stays on the job (its runs leave it out and say why), so
 * an unrelated edit or a job file saved back unchanged is not refused for it.
 *
 * @throws HttpError 400 naming `skills` and the first skill that cannot be attached.
 */
export async function checkJobSkills(
  orgId: string,
  names: readonly string[] | null | undefined,
  had: readonly string[] | null = null,
  db: Db = getDb(),
): Promise<void> {
  const added = (names ?? []).filter((name) => !had?.includes(name))
  const refs = await readSkillRefs(orgId, added, db)
  for (const name of added) {
    const problem = skillRefProblem(name, refs.get(name))
    if (problem) throw badRequest(`skills: ${problem}; only approved skills can be attached`, 'skills')
  }
}
