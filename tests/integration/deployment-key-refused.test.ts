/**
 * The deployment's own key refused by the provider (ANTHROPIC_API_KEY revoked, say). Unlike a
 * stored key it is not paused: only the operator can replace it, with a restart, and a pause would
 * stop every organisation on it for a refusal that may pass. What changes is that people are told
 * where they look: Settings → Models says the deployment's key was refused, when and what the
 * provider said, to admins with the variable to replace, to members with what they can do, and
 * stops saying it once the provider answers the key again. Real HTTP, real Postgres, the real
 * Anthropic provider against the fake Messages API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'

const KEY = 'sk-ant-the-operators-key-4444444444'
const REVOKED = { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }
const NOTE =
  /^The provider refused the deployment's Anthropic key at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(401: invalid x-api-key\): chats and runs that use it fail\. /

/** The text of the page's note on the deployment's key, as a reader sees it, or null without one. */
function deploymentNote(html: string): string | null {
  const note = /data-testid="deployment-key-refused"[^>]*>(.*?)<\/p>/s.exec(html)?.[1]
  return note === undefined ? null : note.replace(/<[^>]*>/g, '').replaceAll('&#x27;', "'")
}

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
}, 240_000)
afterAll(() => agent?.close())

const modelsPage = async (client: ApiClient) => {
  const page = await client.get<string>('/settings/models')
  expect(page.status).toBe(200)
  return page.body
}
const callsWithKey = () => agent.fake.requests.filter((r) => r.headers['x-api-key'] === KEY).length

it('is shown on Settings → Models once the provider refuses it, is not paused, and is shown no more once it answers', async () => {
  const { member, admin } = agent.team
  expect(deploymentNote(await modelsPage(member.client))).toBeNull()

  agent.fake.failKey(KEY, REVOKED)
  const refused = await sendChat(member.client, { message: userText('hello') })
  expect(refused.raw).toMatch(/rejected the API key \(401\)/)

  const memberPage = await modelsPage(member.client)
  expect(deploymentNote(memberPage)).toMatch(NOTE)
  expect(deploymentNote(memberPage)).toMatch(
    /Save a key of your own below to use it instead, or tell whoever runs this server\.$/,
  )
  expect(deploymentNote(memberPage)).not.toContain('ANTHROPIC_API_KEY')
  expect(memberPage).toMatch(
    /the deployment(?:'|&#x27;)s key \(from the server(?:'|&#x27;)s \.env\), which the provider refused \(below\)/,
  )
  const adminPage = await modelsPage(admin.client)
  expect(deploymentNote(adminPage)).toMatch(NOTE)
  expect(deploymentNote(adminPage)).toMatch(/replaces ANTHROPIC_API_KEY in its \.env and restarts it/)

  // Not paused: the next call still goes to the provider (a refusal that passes must not need a restart).
  const before = callsWithKey()
  await sendChat(member.client, { message: userText('hello again') })
  expect(callsWithKey()).toBe(before + 1)

  // The provider answers the key again: the next answer clears the note.
  agent.fake.failKey(KEY, null)
  const answered = await sendChat(member.client, { message: userText('and now?') })
  expect(answered.status).toBe(200)
  expect(JSON.stringify(answered.reply)).toContain('Done.')
  expect(deploymentNote(await modelsPage(member.client))).toBeNull()
})

it('is not shown to someone whose calls do not use it', async () => {
  const { member } = agent.team
  agent.fake.failKey(KEY, REVOKED)
  await sendChat(member.client, { message: userText('refused once more') })
  expect(deploymentNote(await modelsPage(member.client))).toMatch(NOTE)

  // With a key of their own and the organisation's, nothing they do spends the deployment's.
  const OWN = 'sk-ant-members-own-key-5555555555'
  const ORG = 'sk-ant-the-orgs-own-key-6666666666'
  // Keys the provider takes, as a save checks (decision 0514).
  agent.fake.acceptKey(OWN)
  agent.fake.acceptKey(ORG)
  expect(
    (await member.client.request('PUT', '/_agent-native/model-keys', { scope: 'personal', apiKey: OWN }))
      .status,
  ).toBe(200)
  expect(
    (await agent.team.admin.client.request('PUT', '/_agent-native/model-keys', { scope: 'org', apiKey: ORG }))
      .status,
  ).toBe(200)
  expect(deploymentNote(await modelsPage(member.client))).toBeNull()
})
