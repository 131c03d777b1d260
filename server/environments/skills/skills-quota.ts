/**
 * The per-organisation limit on self-made skills (decision 0457). Any member's agent proposes one
 * by writing a SKILL.md, and the Skills page and every admin's review list read them all, so their
 * number must be finite whatever a member writes; deleting one (its author or an admin) makes room.
 */
import type { Db } from '../../db/client.ts'
import { lockKey } from '../../db/lock.ts'
import { quotaExceeded } from '../../lib/errors.ts'
import { countSkills, findSkill } from './skills-store.ts'

/** Enough for a team's house rules; small enough that the Skills page reads all of them at once. */
export const MAX_SKILLS_PER_ORG = 200

/**
 * Checks that the skill `name` may be written: an existing name always may (its text changes), a
 * new one only while the organisation has room. Call it in the transaction that writes the skill:
 * skill writes in one organisation take turns on an advisory lock until it ends, since two new
 * skills at once would otherwise both count the same room and both take it.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkSkillQuota(orgId: string, name: string, tx: Db): Promise<void> {
  await lockKey(tx, `skills:${orgId}`)
  if (await findSkill(orgId, name, tx)) return
  if ((await countSkills(orgId, tx)) < MAX_SKILLS_PER_ORG) return
  throw quotaExceeded(
    `This organisation already has ${MAX_SKILLS_PER_ORG} skills, its limit: ` +
      'delete one on the Skills page first (its author or an admin can)',
  )
}
