/**
 * Deleting a self-made skill (decision 0457). An approved skill is the organisation's (any job or
 * environment of it may attach it), so only its admins delete it; one not approved is still its
 * author's proposal, so its author may withdraw it too. The skill's audit rows stay, with a
 * `deleted` row: the trail of who proposed, approved and removed it outlives the skill.
 */
import { type Caller, isOrgAdmin } from '../../access/caller.ts'
import { getDb } from '../../db/client.ts'
import { conflict, forbidden, notFound } from '../../lib/errors.ts'
import { deleteSkillRow, findSkillById, insertSkillAudit, type SkillRow } from './skills-store.ts'

/** Whether `caller` may delete `skill` (a skill of their organisation). */
export const canDeleteSkill = (caller: Caller, skill: Pick<SkillRow, 'status' | 'createdBy'>) =>
  isOrgAdmin(caller) || (skill.status !== 'approved' && skill.createdBy === caller.userId)

/**
 * Deletes the skill `id` as a person asked. Jobs and environments naming it keep the name: their
 * runs leave it out and say so, as for a skill that lost approval.
 *
 * @throws HttpError 404 outside the caller's organisation, 403 when they may not delete it, 409
 *   when it changed between reading and deleting
 */
export async function deleteSkill(caller: Caller, id: string): Promise<void> {
  const row = await findSkillById(id)
  if (!row || row.orgId !== caller.orgId) throw notFound('No such skill')
  if (!canDeleteSkill(caller, row))
    throw forbidden(
      row.status === 'approved'
        ? "An approved skill is the organisation's: only its admins delete it"
        : "Only the skill's author and the organisation's admins delete it",
    )
  await getDb().transaction(async (tx) => {
    // Approved or edited meanwhile, the rule above may answer otherwise: the person looks again.
    if (!(await deleteSkillRow(row, tx)))
      throw conflict('The skill changed meanwhile; look again', 'updatedAt')
    await insertSkillAudit(
      { skillId: id, orgId: row.orgId, actorId: caller.userId, action: 'deleted', via: 'person' },
      tx,
    )
  })
}
