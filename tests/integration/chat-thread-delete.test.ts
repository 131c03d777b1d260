/**
 * A chat could not be deleted, so a person at USER_MAX_CHAT_THREADS (decision 0485) could never
 * start another. `DELETE /agent/threads/:id` now deletes one of the caller's chats with its
 * messages, a turn running in it stopped first (decision 0487). Nobody else can: the thread's
 * organisation's owner and admin, another member and another organisation's person all get the 404
 * a thread they cannot read gets, and nothing is deleted. Real HTTP, real Postgres, the real
 * Anthropic provider against the fake Messages API.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

const KEY = 'sk-ant-deployment-thread-delete'
const LIMIT = 2

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env: { USER_MAX_CHAT_THREADS: String(LIMIT) } })
}, 240_000)
afterAll(() => agent?.close())

const thread = (id: string) => `/_agent-native/agent/threads/${id}`

/** The thread's row and its messages, as stored. */
const stored = async (threadId: string) => ({
  threads: await queryRows(agent.app.server.db.db, sql`select * from agent_threads where id = ${threadId}`),
  messages: await queryRows(
    agent.app.server.db.db,
    sql`select * from agent_messages where thread_id = ${threadId} order by seq`,
  ),
})

it("refuses to delete someone else's chat with a 404, deleting nothing, and deletes one's own with its messages", async () => {
  const { member, creator, admin, owner, outsider } = agent.team
  const chat = await sendChat(member.client, { message: userText('a private chat') })
  expect(chat.status).toBe(200)
  const id = chat.threadId!
  // The reply is stored once the stream ends.
  await expect.poll(async () => (await stored(id)).messages.length).toBe(2)
  const before = await stored(id)

  for (const attacker of [creator, admin, owner, outsider]) {
    const res = await attacker.client.delete(thread(id))
    expect(res.status, attacker.name).toBe(404)
    expect(res.body.error).toMatchObject({ code: 'not_found' })
  }
  const anonymous = await agent.app.client().delete(thread(id))
  expect(anonymous.status).toBe(401)
  expect(await stored(id)).toEqual(before)
  expect((await member.client.get(thread(id))).status).toBe(200)

  const deleted = await member.client.delete(thread(id))
  expect(deleted.status).toBe(204)
  expect(await stored(id)).toEqual({ threads: [], messages: [] })
  expect((await member.client.get(thread(id))).status).toBe(404)
  expect((await member.client.delete(thread(id))).status).toBe(404)
  const listed = await member.client.get('/_agent-native/agent/threads')
  expect(listed.body.threads.map((t: { id: string }) => t.id)).not.toContain(id)
})

it('stops a turn running in the chat, then deletes it and all it holds', async () => {
  const { member } = agent.team
  let release!: () => void
  let held!: () => void
  const reached = new Promise<void>((resolve) => (held = resolve))
  agent.fake.replyWhen('a long answer please', () => {
    held()
    return new Promise((resolve) => (release = () => resolve({ text: 'Too late.' })))
  })
  const turn = sendChat(member.client, { message: userText('a long answer please') })
  await reached
  const [row] = await queryRows<{ id: string }>(
    agent.app.server.db.db,
    sql`select thread_id as id from agent_messages where parts::text like '%a long answer please%'`,
  )
  const id = row!.id

  expect((await member.client.delete(thread(id))).status).toBe(204)
  release()
  const ended = await turn
  expect(ended.status).toBe(200)
  expect(ended.raw).not.toContain('Too late.')
  expect(await stored(id)).toEqual({ threads: [], messages: [] })
})

it('frees a place under USER_MAX_CHAT_THREADS: at the limit, deleting a chat lets a new one start', async () => {
  const { creator } = agent.team
  const made = []
  for (let i = 0; i < LIMIT; i++) {
    const chat = await sendChat(creator.client, { message: userText(`chat ${i}`) })
    expect(chat.status).toBe(200)
    made.push(chat.threadId!)
  }
  const refused = await sendChat(creator.client, { message: userText('one more') })
  expect(refused.status).toBe(403)
  expect(refused.error).toMatchObject({
    code: 'too_many_chats',
    message: `You have ${LIMIT} chats, the most one person may have. Delete old ones in History to start a new one, or go on in one of them.`,
  })

  expect((await creator.client.delete(thread(made[0]!))).status).toBe(204)
  const fresh = await sendChat(creator.client, { message: userText('one more, after deleting') })
  expect(fresh.status).toBe(200)
  expect(fresh.threadId).toBeTruthy()
  expect((await sendChat(creator.client, { message: userText('and another') })).status).toBe(403)
})
