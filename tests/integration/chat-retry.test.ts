/**
 * A model that answers 529 "overloaded": the chat stream says it is retrying (a transient part,
 * never stored) before each wait and once a retry got through; after the last try it ends with
 * an error that says what happened, and a Retry answers the stored message again without storing
 * it twice. Real HTTP, the real Anthropic provider, a fake Messages API pacing the waits with
 * retry-after-ms.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeReply } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-retry-0529'
const overloaded: FakeReply = {
  status: 529,
  errorType: 'overloaded_error',
  message: 'Overloaded',
  headers: { 'retry-after-ms': '20' },
}

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
})
afterAll(() => agent?.close())
beforeEach(() => {
  agent.fake.requests.length = 0
})

const retryParts = (chunks: { type: string }[]) =>
  chunks.filter((c) => c.type === 'data-retry') as { type: string; data: unknown; transient?: boolean }[]

it('says it is retrying while the model is overloaded, and when a retry got through', async () => {
  agent.fake.reply(overloaded, { text: 'Here after all.' })
  const turn = await sendChat(agent.team.member.client, { message: userText('hello through the overload') })
  expect(turn.status).toBe(200)
  expect(retryParts(turn.chunks)).toEqual([
    { type: 'data-retry', transient: true, data: { attempt: 2, attempts: 3, delayMs: 20, status: 529 } },
    { type: 'data-retry', transient: true, data: null },
  ])
  expect(turn.reply?.parts.some((p) => p.type === 'text' && p.text === 'Here after all.')).toBe(true)
  expect(agent.fake.requests).toHaveLength(2)
  // The notices are not part of the stored reply.
  const thread = await agent.team.member.client.get(`/_agent-native/agent/threads/${turn.threadId}`)
  expect(JSON.stringify(thread.body)).not.toContain('data-retry')
})

it('gives up after three tries with a clear error; Retry answers the stored message once', async () => {
  const c = agent.team.member.client
  agent.fake.reply(overloaded, overloaded, overloaded)
  const failed = await sendChat(c, { message: userText('summarise the week') })
  expect(failed.status).toBe(200)
  expect(retryParts(failed.chunks).map((p) => (p.data as { attempt: number }).attempt)).toEqual([2, 3])
  const error = failed.chunks.find((c) => c.type === 'error') as { errorText: string } | undefined
  expect(error?.errorText).toBe(
    'The model provider is overloaded (529) and did not answer after 3 tries. Try again in a moment.',
  )
  expect(agent.fake.requests).toHaveLength(3)
  expect(failed.threadId).toMatch(/^thr_/)

  agent.fake.reply({ text: 'The week in one line.' })
  const retried = await sendChat(c, {
    threadId: failed.threadId,
    message: userText('summarise the week'),
    retry: true,
  })
  expect(retried.status).toBe(200)
  const thread = await c.get(`/_agent-native/agent/threads/${failed.threadId}`)
  const texts = (thread.body.messages as { role: string; parts: { type: string; text?: string }[] }[]).map(
    (m) => [m.role, m.parts.find((p) => p.type === 'text')?.text],
  )
  expect(texts).toEqual([
    ['user', 'summarise the week'],
    ['assistant', 'The week in one line.'],
  ])
  // The model saw the question once, not twice.
  const sent = agent.fake.requests.at(-1)!.body.messages as { role: string }[]
  expect(sent.filter((m) => m.role === 'user')).toHaveLength(1)
})
