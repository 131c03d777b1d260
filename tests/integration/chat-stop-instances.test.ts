/**
 * A deployment of two instances behind one address: a chat turn runs on the instance its request
 * reached, and the person's Stop, or their delete of the chat, may reach the other. Before decision
 * 0492 that instance stopped only turns it ran itself, so the turn went on (and spent) until its
 * model answered, and a deleted chat's turn went on after its thread was gone. Now every instance is
 * told, and the one running the turn ends it. A turn the person starts right after a stop is not
 * the one stopped.
 *
 * Instance A is the test app (in this process, with the fake model); instance B is the compiled
 * server in its own process over the same database, signing sessions with the same secret.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { notifyChatStopped } from '#server/db/signal.ts'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText, type ChatTurn } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'
import { TEST_AUTH_SECRET } from '#tests/support/test-app.ts'

const KEY = 'sk-ant-chat-stop-instances-0492'

let agent: AgentApp
let other: SpawnedServer

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
  other = await spawnServer({
    DATABASE_URL: process.env.DATABASE_URL!,
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: agent.fake.baseURL,
    SCHEDULER_ENABLED: 'false',
  })
}, 240_000)
afterAll(async () => {
  await other?.stop()
  await agent?.close()
})

/** The member's request to instance B, signed in with the session made on A. */
const onOther = (method: string, path: string) =>
  fetch(other.baseUrl + path, {
    method,
    headers: { origin: other.baseUrl, cookie: agent.team.member.client.cookieHeader },
  })

/** Starts a turn on A whose model answer waits for `release`; resolves once the model was asked. */
async function heldTurn(prompt: string) {
  let release!: () => void
  let reached!: () => void
  const asked = new Promise<void>((resolve) => (reached = resolve))
  agent.fake.replyWhen(prompt, () => {
    reached()
    return new Promise((resolve) => (release = () => resolve({ text: 'Too late.' })))
  })
  let ended = false
  const turn = sendChat(agent.team.member.client, { message: userText(prompt) }).finally(() => (ended = true))
  await asked
  const [row] = await queryRows<{ id: string }>(
    agent.app.server.db.db,
    sql`select thread_id as id from agent_messages where parts::text like ${`%${prompt}%`}`,
  )
  return { threadId: row!.id, turn, ended: () => ended, release: () => release() }
}

it("Stop on the other instance ends the turn where it runs, without waiting for the model's answer", async () => {
  const held = await heldTurn('a long answer, stopped elsewhere')
  try {
    const stopped = await onOther('POST', `/_agent-native/agent/threads/${held.threadId}/stop`)
    expect(stopped.status).toBe(200)
    // B did not run it; A hears of the stop and ends it, its model call still unanswered.
    expect(await stopped.json()).toMatchObject({ threadId: held.threadId, turnStopped: false })
    await expect.poll(held.ended, { timeout: 15_000 }).toBe(true)
  } finally {
    held.release()
  }
  const ended: ChatTurn = await held.turn
  expect(ended.status).toBe(200)
  expect(ended.raw).toContain(`"reason":"stopped by ${agent.team.member.name}"`)
  expect(ended.raw).not.toContain('Too late.')
  // The thread goes on: its next turn, on A, is answered.
  const next = await sendChat(agent.team.member.client, {
    message: userText('and now?'),
    threadId: held.threadId,
  })
  expect(next.status).toBe(200)
  expect(next.raw).toContain('Done.')
})

it('deleting the chat on the other instance ends its turn where it runs', async () => {
  const held = await heldTurn('a long answer, deleted elsewhere')
  try {
    expect((await onOther('DELETE', `/_agent-native/agent/threads/${held.threadId}`)).status).toBe(204)
    await expect.poll(held.ended, { timeout: 15_000 }).toBe(true)
  } finally {
    held.release()
  }
  expect((await held.turn).raw).not.toContain('Too late.')
  const left = await queryRows(
    agent.app.server.db.db,
    sql`select id from agent_messages where thread_id = ${held.threadId}`,
  )
  expect(left).toEqual([])
})

it('a stop asked before the turn started is not its stop: the next one, asked after, ends it', async () => {
  const before = Date.now() - 1_000
  const held = await heldTurn('a turn after an old stop')
  try {
    // Told in order on one connection: the old stop is heard first, then the new one.
    await notifyChatStopped({ threadId: held.threadId, reason: 'an old stop', at: before })
    await notifyChatStopped({ threadId: held.threadId, reason: 'the stop asked now', at: Date.now() })
    await expect.poll(held.ended, { timeout: 15_000 }).toBe(true)
  } finally {
    held.release()
  }
  // The turn says which stop ended it.
  const { raw } = await held.turn
  expect(raw).toContain('"reason":"the stop asked now"')
  expect(raw).not.toContain('an old stop')
})
