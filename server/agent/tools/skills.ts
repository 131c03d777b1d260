/**
 * The agent's view of self-made skills: list them (with their status), and an attempt to approve
 * or reject one, which is always refused and audited: only a person decides, on the Skills page.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { decideSkill, listSkills, skillByName } from '../../environments/skills/skills.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'

const SkillsInput = z.strictObject({
  action: z.enum(['list', 'approve', 'reject']).describe('list; approve and reject are for people only'),
  name: z.string().max(64).optional().describe('The skill, for approve/reject'),
})

export const SKILLS_DESCRIPTION =
  'List self-made skills (skills/<name>/SKILL.md you wrote: pending_approval until a person approves them on the Skills page). You cannot approve or reject skills.'

export function createSkillsTool(ctx: ToolContext) {
  return tool({
    description: SKILLS_DESCRIPTION,
    inputSchema: SkillsInput,
    execute: async (input) => {
      try {
        if (input.action === 'list') {
          const skills = await listSkills(ctx.caller)
          return {
            ok: true as const,
            skills: skills.map((s) => ({ name: s.name, description: s.description, status: s.status })),
          }
        }
        const skill = await skillByName(ctx.caller, input.name ?? '')
        await decideSkill(ctx.caller, skill.id, input.action, 'agent')
        return { ok: true as const, skills: [] }
      } catch (err) {
        return toToolFailure(err, 'skills')
      }
    },
  })
}
