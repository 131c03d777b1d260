import { describe, expect, it } from 'vitest'
import { skippedSkillsNote, withSkills } from './job-skills.ts'

describe("a job's skills in a run", () => {
  const skills = {
    attached: [{ name: 'house-style', content: '---\nname: house-style\n---\nShort sentences.\n' }],
    skipped: [{ name: 'draft', reason: '"draft" was rejected on the Skills page' }],
  }

  it('puts each approved skill into the system prompt, and says which were left out', () => {
    const system = withSkills('You are the agent.', skills)
    expect(system).toBe(
      [
        'You are the agent.',
        'Skills attached to this job (approved by a person; follow them where they apply):\n' +
          '<skill name="house-style">\n---\nname: house-style\n---\nShort sentences.\n</skill>',
        'Skills left out of this run: "draft" was rejected on the Skills page.',
      ].join('\n\n'),
    )
    expect(skippedSkillsNote(skills)).toEqual([
      {
        role: 'system',
        parts: [
          { type: 'text', text: 'Skills left out of this run: "draft" was rejected on the Skills page.' },
        ],
      },
    ])
  })

  it('leaves the prompt and the transcript alone for a job without skills', () => {
    const none = { attached: [], skipped: [] }
    expect(withSkills('You are the agent.', none)).toBe('You are the agent.')
    expect(skippedSkillsNote(none)).toEqual([])
  })
})
