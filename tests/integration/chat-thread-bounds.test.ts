/**
 * A chat thread cannot grow without bound (decision 0462). Before, every turn read the whole
 * thread into memory and sent all of it to the model, and the thread API answered every message:
 * a member (or a script posting turns) could grow one thread until it broke the model's context
 * for good. Now a thread holds at most MAX_THREAD_MESSAGES (the next turn is 403 quota_exceeded,
 * nothing stored), a turn sends only the latest messages within a budget, and the thread API pages.
 * Real HTTP, real Postgres, the real Anthropic provider against the fake Messages API.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest'
import {
  HISTORY_MAX_BYTES,
  HISTORY_MAX_MESSAGES,
  MAX_THREAD_MESSAGES,
  pickHistoryStart,
} from '#server/agent/thread-bounds.ts'
import { THREAD_PAGE_MESSAGES } from '#server/agent/threads.ts'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-thread-bounds'
const THREADS = '/_agent-native/agent/threads'

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
})
afterAll(() => agent?.close())
beforeEach(() => {
  agent.fake.requests.length = 0
})

const db = () => agent.app.server.db.db

/** A new thread of the member's, opened by one real turn (messages 0 and 1). */
async function newThread(question: string): Promise<string> {
  const turn = await sendChat(agent.team.member.client, { message: userText(question) })
  expect(turn.status).toBe(200)
  return turn.threadId!
}

/**
 * Stores messages `from`..`to` (seq) straight into the thread, as weeks of chatting would: a
 * question `q<seq>` at even places, an answer `a<seq>` (padded to `pad` bytes) at odd ones.
 */
async function fill(threadId: string, from: number, to: number, pad = 0) {
  await queryRows(
    db(),
    sql`insert into agent_messages (id, thread_id, seq, role, parts)
        select 'msg_fill_' || ${threadId} || '_' || g, ${threadId}, g,
          case when g % 2 = 0 then 'user' else 'assistant' end,
          jsonb_build_array(jsonb_build_object('type', 'text', 'text',
            case when g % 2 = 0 then 'q' || g else 'a' || g || repeat('x', ${pad}::int) end))
        from generate_series(${from}::int, ${to}::int) as g`,
  )
}

const countMessages = async (threadId: string) =>
  (
    await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from agent_messages where thread_id = ${threadId}`,
    )
  )[0]!.n

type SentMessage = { role: string; content: { type: string; text?: string }[] }
const firstText = (m: SentMessage | undefined) => m?.content.find((c) => c.type === 'text')?.text

it('fills a thread to its limit and refuses the next turn, storing nothing', async () => {
  const threadId = await newThread('start of a long chat')
  await fill(threadId, 2, MAX_THREAD_MESSAGES - 3)
  // The last turn that fits: its question and reply make the thread exactly full.
  const last = await sendChat(agent.team.member.client, { threadId, message: userText('one more') })
  expect(last.status).toBe(200)
  expect(await countMessages(threadId)).toBe(MAX_THREAD_MESSAGES)

  agent.fake.requests.length = 0
  const refused = await sendChat(agent.team.member.client, { threadId, message: userText('and another') })
  expect(refused.status).toBe(403)
  expect(refused.error).toEqual({
    code: 'quota_exceeded',
    field: 'threadId',
    message: `This chat has reached its limit of ${MAX_THREAD_MESSAGES} messages. Start a new chat to go on.`,
  })
  expect(await countMessages(threadId)).toBe(MAX_THREAD_MESSAGES)
  expect(agent.fake.requests).toHaveLength(0)
})

it('messages racing into the last places of a thread join one message and never pass the limit', async () => {
  const threadId = await newThread('a race for the last places')
  await fill(threadId, 2, MAX_THREAD_MESSAGES - 5)
  // Each turn's model call waits until all four texts are stored, so none is answered before the
  // last has arrived (on a busy machine the first could be answered before the fourth was sent,
  // which then rightly began a message of its own). Stored apart they are released as well (and the
  // test fails below); one lost, after the wait's 30 s.
  const stored = vi.waitFor(
    async () => {
      const texts = await queryRows<{ text: string }>(
        db(),
        sql`select parts -> 0 ->> 'text' as text from agent_messages
            where thread_id = ${threadId} and role = 'user' and seq > ${MAX_THREAD_MESSAGES - 5}`,
      )
      expect(texts.flatMap((m) => m.text.split('\n\n')).sort()).toEqual(['r1', 'r2', 'r3', 'r4'])
    },
    { timeout: 30_000, interval: 50 },
  )
  const held = async () => {
    await stored.catch(() => undefined)
    return { text: 'answered' }
  }
  agent.fake.reply(held, held, held, held)
  const turns = await Promise.all(
    ['r1', 'r2', 'r3', 'r4'].map((t) =>
      sendChat(agent.team.member.client, { threadId, message: userText(t) }),
    ),
  )
  expect(turns.map((t) => t.status)).toEqual([200, 200, 200, 200])
  expect(await countMessages(threadId)).toBeLessThanOrEqual(MAX_THREAD_MESSAGES)
  // The first to take the thread's lock made a place; the others, finding it unanswered, joined it
  // (decision 0502), so no two of them can take the places their replies need.
  const asked = await queryRows<{ text: string }>(
    db(),
    sql`select parts -> 0 ->> 'text' as text from agent_messages
        where thread_id = ${threadId} and role = 'user' and seq > ${MAX_THREAD_MESSAGES - 5}`,
  )
  expect(asked.map((m) => m.text.split('\n\n').sort())).toEqual([['r1', 'r2', 'r3', 'r4']])
})

it('sends the model only the latest messages, starting at a question', async () => {
  const threadId = await newThread('a chat of many turns')
  await fill(threadId, 2, 299)
  const turn = await sendChat(agent.team.member.client, {
    threadId,
    message: userText('the newest question'),
  })
  expect(turn.status).toBe(200)
  const sent = agent.fake.requests.at(-1)!.body.messages as SentMessage[]
  expect(sent.length).toBeLessThanOrEqual(HISTORY_MAX_MESSAGES)
  expect(sent.length).toBeGreaterThan(HISTORY_MAX_MESSAGES / 2)
  expect(sent[0]!.role).toBe('user')
  expect(firstText(sent[0])).toMatch(/^q\d+$/)
  expect(firstText(sent.at(-1))).toBe('the newest question')
  expect(JSON.stringify(sent)).not.toContain('"q2"')
})

it('keeps what a turn sends within the byte budget when answers are large', async () => {
  const threadId = await newThread('a chat of long answers')
  await fill(threadId, 2, 41, 40_000)
  const turn = await sendChat(agent.team.member.client, { threadId, message: userText('short question') })
  expect(turn.status).toBe(200)
  const sent = agent.fake.requests.at(-1)!.body.messages as SentMessage[]
  expect(JSON.stringify(sent).length).toBeLessThan(HISTORY_MAX_BYTES)
  expect(sent.length).toBeGreaterThan(2)
  expect(firstText(sent[0])).toMatch(/^q\d+$/)
  expect(firstText(sent.at(-1))).toBe('short question')
})

it('answers a confirmation with the answered reply, its budget counted as stored after the answer', async () => {
  const c = agent.team.member.client
  const threadId = await newThread('a long chat that ends in a confirmation')
  await fill(threadId, 2, 41, 20_000)
  const job = (
    await c.post('/_agent-native/jobs', { name: 'long-chat-job', schedule: '0 7 * * *', instructions: 'x' })
  ).body.job
  agent.fake.reply(toolUse('manage-jobs', { action: 'delete', name: 'long-chat-job' }))
  const asked = await sendChat(c, { threadId, message: userText('delete long-chat-job') })
  const [pending] = toolParts(asked.reply, 'manage-jobs')
  expect(pending.state).toBe('approval-requested')

  // Pad the answer after question `cut` so that, counted before the confirmation is stored, the
  // history from `cut` to the pending reply (seq 43) fills the byte budget but for 10 bytes.
  const cut = 28
  const sizes = () =>
    queryRows<{ seq: number; role: 'user' | 'assistant'; bytes: number }>(
      db(),
      sql`select seq, role, octet_length(parts::text) as bytes from agent_messages
          where thread_id = ${threadId} order by seq desc limit ${HISTORY_MAX_MESSAGES}`,
    )
  const fromCut = (await sizes()).filter((m) => m.seq >= cut).reduce((sum, m) => sum + m.bytes, 0)
  await queryRows(
    db(),
    sql`update agent_messages set parts = jsonb_build_array(jsonb_build_object('type', 'text', 'text',
          parts->0->>'text' || repeat('y', ${HISTORY_MAX_BYTES - 10 - fromCut}::int)))
        where thread_id = ${threadId} and seq = ${cut + 1}`,
  )
  expect(pickHistoryStart(await sizes())).toBe(cut)

  agent.fake.reply({ text: 'Deleted it.' })
  const confirmed = await sendChat(c, {
    threadId,
    message: {
      ...asked.reply,
      parts: [{ ...pending, state: 'approval-responded', approval: { ...pending.approval, approved: true } }],
    },
  })
  expect(confirmed.status).toBe(200)
  expect((await c.get(`/_agent-native/jobs/${job.id}`)).status).toBe(404)
  // The model saw the confirmed call and its result, and the answer's bytes pushed question `cut`
  // out of the budget: the history starts at the question after it.
  const sent = agent.fake.requests.at(-1)!.body.messages as SentMessage[]
  expect(firstText(sent[0])).toBe(`q${cut + 2}`)
  expect(JSON.stringify(sent)).toContain('Deleted job long-chat-job')
  expect(JSON.stringify(sent).length).toBeLessThan(HISTORY_MAX_BYTES)
})

it('reads a thread a page at a time, latest first, with a way to earlier pages', async () => {
  const c = agent.team.member.client
  const threadId = await newThread('a chat to page through')
  await fill(threadId, 2, 249)
  const texts = (page: { messages: { parts: { text?: string }[] }[] }) =>
    page.messages.map((m) => m.parts[0]!.text)

  const latest = await c.get(`${THREADS}/${threadId}`)
  expect(latest.status).toBe(200)
  expect(latest.body.messages).toHaveLength(THREAD_PAGE_MESSAGES)
  expect(texts(latest.body).at(-1)).toBe('a249')
  expect(latest.body.hasMore).toBe(true)
  expect(latest.body.nextBefore).toBe(latest.body.messages[0].id)

  const middle = await c.get(`${THREADS}/${threadId}?before=${latest.body.nextBefore}`)
  expect(texts(middle.body).at(-1)).toBe('a149')
  expect(middle.body.hasMore).toBe(true)

  const first = await c.get(`${THREADS}/${threadId}?before=${middle.body.nextBefore}`)
  expect(first.body.messages).toHaveLength(50)
  expect(texts(first.body)[0]).toBe('a chat to page through')
  expect(first.body.hasMore).toBe(false)
  expect(first.body.nextBefore).toBeNull()
})

it('refuses a page before a message that is not in the thread', async () => {
  const c = agent.team.member.client
  const mine = await newThread('mine')
  const theirs = (await sendChat(agent.team.admin.client, { message: userText('theirs') })).threadId!
  const [theirMessage] = await queryRows<{ id: string }>(
    db(),
    sql`select id from agent_messages where thread_id = ${theirs} limit 1`,
  )
  for (const before of ['msg_nope', theirMessage!.id]) {
    const res = await c.get(`${THREADS}/${mine}?before=${before}`)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'bad_request', field: 'before' })
  }
})

type SentBlock = { type: string; text: string; cache_control?: unknown }
/** What a turn sent the model: the system blocks, the tools and the messages. */
const lastRequest = () =>
  agent.fake.requests.at(-1)!.body as { system: SentBlock[]; tools: unknown[]; messages: SentMessage[] }
const startMetadata = (turn: { chunks: { type: string; messageMetadata?: unknown }[] }) =>
  turn.chunks.find((c) => c.type === 'start')?.messageMetadata

it('tells the model how many earlier messages a long thread leaves out, after the cached prefix', async () => {
  const c = agent.team.member.client
  const short = await newThread('a short chat')
  expect((await sendChat(c, { threadId: short, message: userText('still short') })).status).toBe(200)
  const shortSent = lastRequest()
  expect(JSON.stringify(shortSent)).not.toContain('earlier message')

  const long = await newThread('a long chat')
  await fill(long, 2, 199)
  expect((await sendChat(c, { threadId: long, message: userText('what did I say first?') })).status).toBe(200)
  const longSent = lastRequest()
  const leftOut = 200 + 1 - longSent.messages.length
  expect(leftOut).toBeGreaterThan(100)
  const [stable, context] = longSent.system
  expect(context!.text).toContain(
    `${leftOut} earlier messages of this conversation are not included. If the person refers to something ` +
      'you cannot see, say so and suggest restating it or starting a new chat.',
  )
  // The cached prefix (tools, then the marked stable block) is byte for byte a short thread's.
  expect(stable!.cache_control).toBeDefined()
  expect(JSON.stringify([longSent.tools, stable])).toBe(
    JSON.stringify([shortSent.tools, shortSent.system[0]]),
  )
})

it('says where the history starts: the thread API for the next turn, the reply for its own', async () => {
  const c = agent.team.member.client
  const short = await newThread('another short chat')
  expect((await c.get(`${THREADS}/${short}`)).body.historyStart).toBeNull()
  const shortTurn = await sendChat(c, { threadId: short, message: userText('still short') })
  expect(startMetadata(shortTurn)).toEqual({ threadId: short, historyStart: null })

  const long = await newThread('another long chat')
  await fill(long, 2, 199)
  // Read before the person asks: where the next turn starts.
  const page = await c.get(`${THREADS}/${long}`)
  const turn = await sendChat(c, { threadId: long, message: userText('what did I say first?') })
  const first = firstText(lastRequest().messages[0])
  const startId = page.body.messages.find(
    (m: { parts: { text?: string }[] }) => m.parts[0]!.text === first,
  )?.id
  expect(first).toMatch(/^q\d+$/)
  expect(page.body.historyStart).toBe(startId)
  expect(startMetadata(turn)).toEqual({ threadId: long, historyStart: startId })
})
