/**
 * A chat thread holds at most one message the model has not answered (decision 0502), and a turn
 * that spent nothing on a person's own key leaves no row of usage (decision 0504). A member
 * stores a personal model key the provider refuses: every turn's call is refused at no
 * cost to anyone, and each of their messages used to be stored all the same, beside the last one,
 * 20,000 characters a request, 500 a thread, a thousand threads. Now a message sent while the
 * latest is still unanswered is added to it, the two within 20,000 characters together; past that
 * the request is a 400 that changes nothing, and the next answered turn sees everything the person
 * wrote once. A key the provider refuses with a 401 is paused after its first refusal (decision 0505), so
 * the key here is a real one with no credit left: the provider answers each call with a 400, as
 * free as a 401, and the bound must hold for it all the same.
 * Real HTTP, real Postgres, the real Anthropic provider against the fake Messages API.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { NO_CREDIT_ANSWER } from '#tests/support/fake-anthropic.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const KEY = 'sk-ant-deployment-unanswered'
const NO_CREDIT = 'sk-ant-no-credit-0000000000'
const MODEL_KEYS = '/_agent-native/model-keys'

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
  agent.fake.failKey(NO_CREDIT, NO_CREDIT_ANSWER)
}, 240_000)
afterAll(() => agent?.close())

const storedMessages = async (threadId: string) =>
  queryRows<{ role: string; bytes: number; parts: { type: string; text?: string }[] }>(
    agent.app.server.db.db,
    sql`select role, octet_length(parts::text)::int as bytes, parts from agent_messages
        where thread_id = ${threadId} order by seq`,
  )

it('a loop of messages whose turns the provider refuses stores one message, within the limit', async () => {
  const client = agent.team.member.client
  const saved = await client.request('PUT', MODEL_KEYS, { scope: 'personal', apiKey: NO_CREDIT })
  expect(saved.status).toBe(200)

  const first = await sendChat(client, { message: userText(`first ${'a'.repeat(4_000)}`) })
  expect(first.status).toBe(200)
  expect(JSON.stringify(first.chunks)).toContain('"type":"error"')
  const threadId = first.threadId!
  expect(threadId).toMatch(/^thr_/)

  // The script goes on: three more messages of 4,000 characters, each refused by the provider.
  const more = [2, 3, 4].map((n) => `message ${n} ${'b'.repeat(4_000)}`)
  for (const message of more) {
    expect((await sendChat(client, { threadId, message: userText(message) })).status).toBe(200)
  }
  const rows = await storedMessages(threadId)
  expect(rows.map((r) => r.role)).toEqual(['user'])
  expect(rows[0]!.parts).toEqual([
    { type: 'text', text: [`first ${'a'.repeat(4_000)}`, ...more].join('\n\n') },
  ])

  // The next one would take the unanswered message past 20,000 characters: refused, nothing changed.
  const before = await snapshotTables(agent.app.server.db)
  const over = await sendChat(client, { threadId, message: userText('c'.repeat(4_000)) })
  expect(over.status).toBe(400)
  expect(over.error).toMatchObject({ code: 'bad_request', field: 'message' })
  expect(over.error!.message).toMatch(
    /^message: your previous message has no reply yet.*over 20000 characters/,
  )
  expect(await snapshotTables(agent.app.server.db)).toEqual(before)
  expect(agent.fake.requests.filter((r) => r.headers['x-api-key'] === NO_CREDIT)).toHaveLength(4)
  // Nor does a turn that spent nothing on their own key leave its row (decision 0504).
  const turns = await queryRows<{ n: number }>(
    agent.app.server.db.db,
    sql`select count(*)::int as n from chat_turns where user_id = ${agent.team.member.id}`,
  )
  expect(turns[0]!.n).toBe(0)
})

it('once the key works, one turn answers all of it; a retry of the last part stores nothing', async () => {
  const client = agent.team.member.client
  const first = await sendChat(client, { message: userText('what is on today?') })
  const threadId = first.threadId!
  await sendChat(client, { threadId, message: userText('and tomorrow?') })

  expect((await client.request('DELETE', MODEL_KEYS, { scope: 'personal' })).status).toBe(204)
  agent.fake.reply({ text: 'Two meetings today, none tomorrow.' })
  // The browser's Retry sends the message it shows last.
  const retried = await sendChat(client, { threadId, message: userText('and tomorrow?'), retry: true })
  expect(retried.status).toBe(200)
  const sent = agent.fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[]
  expect(sent.filter((m) => m.role === 'user')).toHaveLength(1)
  expect(JSON.stringify(sent)).toContain('what is on today?\\n\\nand tomorrow?')

  const rows = await storedMessages(threadId)
  expect(rows.map((r) => [r.role, r.parts.find((p) => p.type === 'text')?.text])).toEqual([
    ['user', 'what is on today?\n\nand tomorrow?'],
    ['assistant', 'Two meetings today, none tomorrow.'],
  ])
  // Answered, the thread takes the next message as its own again.
  agent.fake.reply({ text: 'Yes.' })
  expect((await sendChat(client, { threadId, message: userText('thanks, is that all?') })).status).toBe(200)
  expect((await storedMessages(threadId)).map((r) => r.role)).toEqual([
    'user',
    'assistant',
    'user',
    'assistant',
  ])
})
