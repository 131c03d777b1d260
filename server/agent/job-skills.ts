/**
 * The skills a job names, as a run gets them: the text of each still-approved one in the system
 * prompt, and a word (in the prompt and, for people, at the top of the transcript) on each left
 * out because it lost approval after the job was saved: edited (pending again), rejected or gone.
 * The prompt, not files in the run's folder: a run may have no folder (commands off), and the
 * model should read the skill without having to look for it.
 */
import { readSkillRefs, skillRefProblem } from '../jobs/skill-refs.ts'
import type { ExecutorMessage } from '../runs/executor.ts'

export type RunSkills = {
  attached: { name: string; content: string }[]
  skipped: { name: string; reason: string }[]
}

/** Reads the job's skills as they are now. */
export async function loadRunSkills(orgId: string, names: readonly string[] | null): Promise<RunSkills> {
  const refs = await readSkillRefs(orgId, names ?? [])
  const result: RunSkills = { attached: [], skipped: [] }
  for (const name of names ?? []) {
    const ref = refs.get(name)
    if (ref?.status === 'approved') result.attached.push({ name, content: ref.content })
    else result.skipped.push({ name, reason: skillRefProblem(name, ref) ?? '' })
  }
  return result
}

const skippedLine = (skills: RunSkills) =>
  skills.skipped.length
    ? `Skills left out of this run: ${skills.skipped.map((s) => s.reason).join('; ')}.`
    : ''

/** The system prompt with the approved skills' text and which were left out. */
export function withSkills(system: string, skills: RunSkills): string {
  const parts = [system]
  if (skills.attached.length) {
    parts.push(
      'Skills attached to this job (approved by a person; follow them where they apply):\n' +
        skills.attached.map((s) => `<skill name="${s.name}">\n${s.content.trim()}\n</skill>`).join('\n'),
    )
  }
  const skipped = skippedLine(skills)
  if (skipped) parts.push(skipped)
  return parts.join('\n\n')
}

/** A system line at the top of the transcript saying which skills were left out, if any. */
export function skippedSkillsNote(skills: RunSkills): ExecutorMessage[] {
  const text = skippedLine(skills)
  return text ? [{ role: 'system', parts: [{ type: 'text', text }] }] : []
}
