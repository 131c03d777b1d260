/**
 * The Skills page: self-made skills of the organisation (pending first), each with its text, and
 * Approve / Reject for admins. The decision names the version the person reviewed (`updatedAt`),
 * so a skill edited meanwhile is not approved unseen. Delete, for whom may (decision 0457). Each
 * skill's history is read by the page from the API, which decides who may see it (decision 0465).
 */
import { type Caller, isOrgAdmin } from '../access/caller.ts'
import { canDeleteSkill, deleteSkill } from '../environments/skills/delete-skill.ts'
import { decideSkill, listSkills } from '../environments/skills/skills.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'

export async function loadSkillsPage(caller: Caller) {
  const skills = (await listSkills(caller)).map((skill) => ({
    ...skill,
    canDelete: canDeleteSkill(caller, skill),
  }))
  // A skill's history is shown in the person's time zone (their profile's, else their browser's).
  return { skills, canDecide: isOrgAdmin(caller), timeZone: caller.timezone }
}

/** Form intents: approve and reject (fields `id`, `updatedAt`), and delete (field `id`). */
export async function handleSkillsAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', ...fields }) => {
    if (intent === 'delete') return deleteSkill(caller, fields.id ?? '')
    if (intent !== 'approve' && intent !== 'reject') throw badRequest(`Unknown intent "${intent}"`, 'intent')
    return decideSkill(caller, fields.id ?? '', intent, 'person', fields.updatedAt || undefined)
  })
}
