/** Skills as the tests make them: a person's agent writes one, an admin decides on it. */
import { expect } from 'vitest'
import type { ApiClient } from './api-client.ts'
import { sendChat, toolParts, userText } from './agent-chat.ts'
import type { FakeAnthropic } from './fake-anthropic.ts'

const S = '/_agent-native/skills'

export const skillText = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: About ${name}\n---\n${body}\n`

/** The person's agent writes skills/<name>/SKILL.md in their scratch folder; the tool's output. */
export async function agentWritesSkillFile(
  client: ApiClient,
  fake: FakeAnthropic,
  name: string,
  body: string,
) {
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
  return toolParts(turn.reply, 'write_file')[0].output
}

/** The person's agent writes skills/<name>/SKILL.md in their scratch folder: a pending skill. */
export async function agentWritesSkill(client: ApiClient, fake: FakeAnthropic, name: string, body: string) {
  const output = await agentWritesSkillFile(client, fake, name, body)
  expect(output.skill).toMatchObject({ name, status: 'pending_approval' })
}

/** The skill named `name` as the Skills list shows it to `client`, if any. */
export async function skillNamed(client: ApiClient, name: string) {
  const { body } = await client.get(S)
  return body.skills.find((s: { name: string }) => s.name === name)
}

/** An admin approves or rejects the skill named `name`. */
export async function decideSkill(admin: ApiClient, name: string, decision: 'approve' | 'reject') {
  const skill = await skillNamed(admin, name)
  const res = await admin.post(`${S}/${skill.id}/${decision}`, { updatedAt: skill.updatedAt })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
