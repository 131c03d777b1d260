/**
 * A job's `skills` field over real HTTP: the skills are self-made ones the agent wrote through its
 * own tool (chat, write_file), decided by an admin through the API. Saving a job may name only
 * approved skills of its organisation (a 400 naming `skills` and the skill, nothing written), and
 * a run's request to the model carries the text of each still-approved skill but not of one that
 * went back to pending after the job was saved; the run says which it left out and why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWritesSkill as writeSkill, decideSkill } from '#tests/support/skills.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'
import { runNow } from '#tests/support/runs.ts'

const KEY = 'sk-ant-deployment-skills-0013'
const J = '/_agent-native/jobs'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, scheduler: true, environmentsDir: 'clockwork-job-skills-' })
  ;({ team, fake } = agent)
})
afterAll(() => agent?.close())

/** The member's agent writes a pending skill. */
const agentWritesSkill = (name: string, body: string) => writeSkill(team.member.client, fake, name, body)
const decide = (name: string, decision: 'approve' | 'reject') =>
  decideSkill(team.admin.client, name, decision)

const job = (name: string, skills: unknown) => ({
  name,
  schedule: '0 7 * * 1-5',
  timezone: 'Europe/Berlin',
  instructions: `Write the ${name} report.`,
  skills,
})

describe("a job's skills", () => {
  beforeAll(async () => {
    await agentWritesSkill('house-style', 'Write in short sentences.')
    await decide('house-style', 'approve')
    await agentWritesSkill('draft-notes', 'Not reviewed yet.')
    await agentWritesSkill('old-rules', 'Shout at readers.')
    await decide('old-rules', 'reject')
  })

  it('must be approved skills of the organisation; anything else is a 400 naming skills and the skill', async () => {
    const c = team.member.client
    const cases: [string, RegExp][] = [
      ['nope', /no skill "nope"/],
      ['draft-notes', /"draft-notes" waits for a person's approval/],
      ['old-rules', /"old-rules" was rejected/],
    ]
    for (const [skill, message] of cases) {
      const res = await c.post(J, job(`refused-${skill}`, ['house-style', skill]))
      expect(res.status, skill).toBe(400)
      expect(res.body.error).toMatchObject({ field: 'skills', message })
    }
    // Nothing was written.
    const listed = await c.get(J)
    expect(listed.body.jobs.filter((j: { name: string }) => j.name.startsWith('refused-'))).toEqual([])
    // A badly spelled name is the field's schema's call, naming the list item.
    expect((await c.post(J, job('bad-name', ['House Style']))).body.error.field).toBe('skills.0')

    const created = await c.post(J, job('styled', ['house-style']))
    expect(created.status).toBe(201)
    expect(created.body.job.skills).toEqual(['house-style'])

    // Adding a pending one to the saved job is refused too, and the job stays as it was.
    const id = created.body.job.id
    const added = await c.patch(`${J}/${id}`, { skills: ['house-style', 'draft-notes'] })
    expect(added.status).toBe(400)
    expect(added.body.error).toMatchObject({ field: 'skills', message: /draft-notes/ })
    const after = await c.get(`${J}/${id}`)
    expect(after.body.job).toMatchObject({ skills: ['house-style'], version: 1 })

    // The job file goes through the same check.
    const file = await c.put(
      `/_agent-native/resources/personal/jobs/filed.md`,
      `---\nschedule: '0 7 * * *'\nskills: [house-style, draft-notes]\n---\nFile it.\n`,
    )
    expect(file.status).toBe(400)
    expect(file.body.error).toMatchObject({ field: 'skills', message: /draft-notes/ })

    // Skills belong to their organisation: another one's approved skill is unknown there.
    const outsider = await team.outsider.client.post(J, job('elsewhere', ['house-style']))
    expect(outsider.status).toBe(400)
    expect(outsider.body.error).toMatchObject({ field: 'skills', message: /no skill "house-style"/ })
  })

  it("reach a run's model request while approved; one pending again since is left out, and the run says so", async () => {
    await agentWritesSkill('tone-guide', 'TONE-MARKER: end every report with a haiku.')
    await decide('tone-guide', 'approve')
    await agentWritesSkill('deploy-steps', 'EDIT-MARKER-ONE: deploy on Tuesdays.')
    await decide('deploy-steps', 'approve')
    const c = team.member.client
    const created = await c.post(J, job('skilled', ['tone-guide', 'deploy-steps']))
    expect(created.status).toBe(201)

    // Edited after the job was saved: pending again, so the next run must not use either text.
    await agentWritesSkill('deploy-steps', 'EDIT-MARKER-TWO: deploy on Fridays.')

    const run = await runNow(c, created.body.job.id)
    expect(run.run.status).toBe('success')

    const requests = fake.requests.filter((r) =>
      JSON.stringify(r.body.messages).includes('Write the skilled report.'),
    )
    expect(requests.length).toBeGreaterThan(0)
    const system = JSON.stringify(requests[0]!.body.system)
    expect(system).toContain('TONE-MARKER: end every report with a haiku.')
    expect(system).toContain('<skill name=\\"tone-guide\\">')
    expect(system).not.toContain('EDIT-MARKER')
    expect(system).toMatch(/left out of this run: \\"deploy-steps\\" waits for a person's approval/)

    const note = run.transcript.find((m: { role: string }) => m.role === 'system')
    expect(note.parts).toEqual([
      { type: 'text', text: expect.stringMatching(/^Skills left out of this run: "deploy-steps" waits for/) },
    ])
    expect(JSON.stringify(run.transcript)).not.toContain('EDIT-MARKER')
  })
})
