/**
 * A self-made skill's frontmatter is the member's text, read by the server. gray-matter, called
 * without options, runs a `---js` block through `eval` in the server's process: the member's agent
 * writing skills/<name>/SKILL.md ran that code for every tenant's server. Read as YAML only, the
 * block is refused and no skill is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-skill-frontmatter-0001',
    environmentsDir: 'clockwork-skill-js-',
  })
})
afterAll(() => agent?.close())

describe('a SKILL.md the agent writes', () => {
  it('with a ---js block is not run by the server', async () => {
    const script = "{ name: 'evaluated', description: 'evaluated by the server: ' + 6 * 7 }"
    agent.fake.reply(
      toolUse('write_file', { path: 'skills/evaluated/SKILL.md', content: `---js\n${script}\n---\nHi.\n` }),
      { text: 'Written.' },
    )
    const turn = await sendChat(agent.team.member.client, { message: userText('write the skill') })
    expect(turn.status).toBe(200)
    expect(toolParts(turn.reply, 'write_file')[0].output).toMatchObject({ ok: true })
    const skills = await agent.team.admin.client.get('/_agent-native/skills')
    expect(skills.status).toBe(200)
    // Unfixed, the skill is stored with the description the script computed.
    expect(JSON.stringify(skills.body)).not.toContain('evaluated by the server: 42')
  }, 60_000)
})
