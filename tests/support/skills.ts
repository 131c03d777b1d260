/** Skills as the tests make them: a person's agent writes one, an admin decides on it. */
import { expect } from 'vitest'
import type { ApiClient } from './api-client.ts'
import { sendChat, toolParts, userText } from './agent-chat.ts'
import type { FakeAnthropic } from './fake-anthropic.ts'

const S = '/_agent-native/skills'

export const skillText = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: About ${name}\n---\n${body}\n`

/** The person's agent writes skills/<name>/SKILL.md in their scratch folder: a pending skill. */
export async function agentWritesSkill(client: ApiClient, fake: FakeAnthropic, name: string, body: string) {
  const token = `write-${name}-${Math.random()}`
  fake.replyWhen(
    token,
    {
      content: [
        {
          type: 'tool_use',
          name: 'write_file',
          input: { path: `skills/${name}/SKILL.md`, content: skillText(name, body) },
        },
      ],
    },
    { text: 'Written.' },
  )
  const turn = await sendChat(client, { message: userText(token) })
  expect(turn.status).toBe(200)
  expect(toolParts(turn.reply, 'write_file')[0].output.skill).toMatchObject({
    name,
    status: 'pending_approval',
  })
}

/** An admin approves or rejects the skill named `name`. */
export async function decideSkill(admin: ApiClient, name: string, decision: 'approve' | 'reject') {
  const { body } = await admin.get(S)
  const skill = body.skills.find((s: { name: string }) => s.name === name)
  const res = await admin.post(`${S}/${skill.id}/${decision}`, { updatedAt: skill.updatedAt })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
