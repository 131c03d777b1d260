/**
 * How far a chat thread may grow, and how much of it a turn reads (decision 0462). A thread holds
 * at most MAX_THREAD_MESSAGES; a turn sends the model only its latest messages within a budget,
 * read newest first with a LIMIT, so neither memory nor the model's context grows with the thread.
 */
import type { UIMessage } from 'ai'
import { getDb } from '../db/client.ts'
import { checkRoom, lockKey } from '../db/lock.ts'
import { badRequest, HttpError, quotaExceeded } from '../lib/errors.ts'
import { env } from '../env.ts'
import { newId } from '../lib/ids.ts'
import { MAX_CHAT_TEXT, readUserText, type ChatRequest } from './chat-request.ts'
import {
  appendThreadMessage,
  chatThreadsByOrganisation,
  countThreadMessages,
  insertThread,
  selectMessagePage,
  selectMessagesFrom,
  selectMessageSizes,
  updateMessageParts,
  type MessageRow,
  type MessageSize,
} from '../runs/threads.ts'

/** A stored message as an AI SDK UI message. */
export function toUIMessage(row: Pick<MessageRow, 'id' | 'role' | 'parts'>): UIMessage {
  return {
    id: row.id,
    role: row.role === 'user' ? 'user' : 'assistant',
    parts: row.parts as UIMessage['parts'],
  }
}

/** The most messages one chat thread holds: 250 turns of a question and its reply. */
export const MAX_THREAD_MESSAGES = 500

/**
 * What one turn sends the model at most: its latest messages, this many and this many bytes of
 * stored parts (about 75k tokens), well inside every supported model's context window with room
 * for the system prompt, the tools and the reply.
 */
export const HISTORY_MAX_MESSAGES = 60
export const HISTORY_MAX_BYTES = 300_000

const threadFull = () =>
  quotaExceeded(
    `This chat has reached its limit of ${MAX_THREAD_MESSAGES} messages. Start a new chat to go on.`,
    'threadId',
  )

/**
 * Creates a person's chat thread unless they already have USER_MAX_CHAT_THREADS, counted in every
 * organisation they belong to: anyone can make organisations, so a count per organisation would not
 * bound them (decision 0485); chats in one they left are not theirs to delete, so not counted
 * (decision 0495). Creates take turns on the person's lock, so racing first messages cannot pass it.
 */
export async function insertChatThreadWithinLimit(input: {
  id: string
  orgId: string
  userId: string
  title: string
}): Promise<void> {
  const limit = env().USER_MAX_CHAT_THREADS
  await getDb().transaction(async (tx) => {
    await lockKey(tx, `chat-threads:${input.userId}`)
    const counted = await chatThreadsByOrganisation(input.userId, tx)
    const total = counted.reduce((sum, org) => sum + org.n, 0)
    if (total >= limit)
      throw tooManyChats(
        total,
        counted.filter((org) => org.orgId !== input.orgId),
      )
    await insertThread({ ...input, kind: 'chat' }, tx)
  })
}

/**
 * The refusal of a new chat past the limit. History lists the active organisation's chats only, so
 * when some are elsewhere it says where: a person whose chats are all in another organisation would
 * otherwise find an empty History and nothing to delete.
 */
function tooManyChats(total: number, elsewhere: { name: string; n: number }[]): HttpError {
  const where = elsewhere.length
    ? `; ${elsewhere.reduce((sum, org) => sum + org.n, 0)} of them are in other organisations ` +
      `(${elsewhere.map((org) => `${org.name}: ${org.n}`).join(', ')}), each listed in its own History`
    : ''
  return new HttpError(
    403,
    'too_many_chats',
    `You have ${total} chats, the most one person may have${where}. Delete old ones in History to start a new one, or go on in one of them.`,
    'threadId',
  )
}

/** Thrown inside the reply's transaction to roll it back when the thread has no room left. */
class NoRoomForReply extends Error {}

/**
 * Stores the model's reply in the thread unless the thread is full: false then (only when turns
 * of one thread race, as a person's message keeps room for its reply). Appends to one thread take
 * turns on its lock, so racing turns cannot pass the limit.
 */
export async function appendReplyWithinLimit(input: {
  id: string
  threadId: string
  parts: unknown[]
}): Promise<boolean> {
  try {
    await getDb().transaction(async (tx) => {
      await checkRoom(
        tx,
        `thread-messages:${input.threadId}`,
        MAX_THREAD_MESSAGES,
        () => countThreadMessages(input.threadId, tx),
        () => new NoRoomForReply(),
      )
      await appendThreadMessage({ ...input, role: 'assistant' }, tx)
    })
    return true
  } catch (err) {
    if (err instanceof NoRoomForReply) return false
    throw err
  }
}

/** What stands between a person's messages joined while the first had no reply. */
const JOIN = '\n\n'

const tooLongTogether = () =>
  badRequest(
    `message: your previous message has no reply yet, so this one is added to it, and together they would be ` +
      `over ${MAX_CHAT_TEXT} characters. Retry the previous one, or start a new chat`,
    'message',
  )

/**
 * Stores a person's message in the thread, where a thread holds at most one message the model has
 * not answered (decision 0502). A message sent while the latest is still the person's own (its turn
 * failed before replying, or is still going) is added to that one, the two within MAX_CHAT_TEXT
 * together, instead of being stored beside it: a model call the provider refuses costs nothing (a
 * personal key that is not a key), so a loop of requests otherwise stored a message each without
 * end. A retry whose text is the unanswered message, or what was last added to it, stores nothing.
 * Takes turns with the thread's other writes on its lock. @returns the latest message before it.
 */
export async function addPersonMessage(
  threadId: string,
  text: string,
  retry: boolean,
): Promise<UIMessage | undefined> {
  return getDb().transaction(async (tx) => {
    await lockKey(tx, `thread-messages:${threadId}`)
    const [row] = (await selectMessagePage(threadId, { limit: 1 }, tx)).rows
    const latest = row && toUIMessage(row)
    if (latest?.role === 'user') {
      const unanswered = readUserText(latest as ChatRequest['message'])
      if (retry && (unanswered === text || unanswered.endsWith(`${JOIN}${text}`))) return latest
      const joined = `${unanswered}${JOIN}${text}`
      if (joined.length > MAX_CHAT_TEXT) throw tooLongTogether()
      await updateMessageParts(threadId, latest.id, [{ type: 'text', text: joined }], tx)
      return latest
    }
    if ((await countThreadMessages(threadId, tx)) >= MAX_THREAD_MESSAGES - 1) throw threadFull()
    await appendThreadMessage(
      { id: newId('msg'), threadId, role: 'user', parts: [{ type: 'text', text }] },
      tx,
    )
    return latest
  })
}

/**
 * Where the history starts, newest first in `sizes`: everything back to the latest person's
 * message, then earlier messages while both budgets hold, cut so it starts at a person's message.
 * Cuts fall between whole messages, and a tool call and its result live in one message, so a call
 * is never sent without its result. Undefined when there is nothing to send.
 */
export function pickHistoryStart(
  sizes: Pick<MessageSize, 'seq' | 'role' | 'bytes'>[],
  budget = { messages: HISTORY_MAX_MESSAGES, bytes: HISTORY_MAX_BYTES },
): number | undefined {
  let start: number | undefined
  let bytes = 0
  let reachedUser = false
  for (const [i, m] of sizes.entries()) {
    bytes += m.bytes
    const fits = i < budget.messages && bytes <= budget.bytes
    if (reachedUser && !fits) break
    if (m.role === 'user') {
      start = m.seq
      reachedUser = true
    }
  }
  return start
}

/**
 * What one turn sends the model: the thread's latest messages within the budget, in order, and how
 * many earlier messages it leaves out (the model is told, and the chat marks where it starts).
 */
export type History = { messages: UIMessage[]; leftOut: number }

/**
 * How many of the thread's messages come before `start`, `sizes` being its latest `limit` as read:
 * fewer than asked for is the whole thread, so none are before the oldest of them.
 */
async function countLeftOut(
  threadId: string,
  sizes: Pick<MessageSize, 'seq'>[],
  limit: number,
  start: number,
) {
  if (sizes.length < limit && sizes.at(-1)?.seq === start) return 0
  return countThreadMessages(threadId, undefined, { beforeSeq: start })
}

/** The history a turn sends the model now, its question already stored. */
export async function readHistory(threadId: string): Promise<History> {
  const sizes = await selectMessageSizes(threadId, HISTORY_MAX_MESSAGES)
  const start = pickHistoryStart(sizes)
  if (start === undefined) return { messages: [], leftOut: 0 }
  const [messages, leftOut] = await Promise.all([
    selectMessagesFrom(threadId, start),
    countLeftOut(threadId, sizes, HISTORY_MAX_MESSAGES, start),
  ])
  return { messages: messages.map(toUIMessage), leftOut }
}

/**
 * The oldest message the thread's next turn would send the model when earlier ones are left out,
 * by the same rule as readHistory with a short question added; null when it would send them all.
 * A long next question can leave out a little more.
 */
export async function nextHistoryStart(threadId: string): Promise<string | null> {
  const limit = HISTORY_MAX_MESSAGES - 1
  const sizes = await selectMessageSizes(threadId, limit)
  const question = { seq: Number.MAX_SAFE_INTEGER, role: 'user' as const, bytes: 0 }
  const start = pickHistoryStart([question, ...sizes])
  const first = sizes.find((m) => m.seq === start)
  if (!first || (await countLeftOut(threadId, sizes, limit, first.seq)) === 0) return null
  return first.id
}

/**
 * A confirmation's history: `answer` checks the thread's latest message (undefined when the thread
 * has none) and answers it changed, the change is stored, and the history is what readHistory would
 * read after it. The latest message is read once, with the history, not once more to check it.
 * Answering only adds to the message, so the history after the change is the tail of the one read
 * before it, cut again with the stored size.
 */
export async function answerLatest(
  threadId: string,
  answer: (latest: UIMessage | undefined) => UIMessage,
): Promise<History> {
  const sizes = await selectMessageSizes(threadId, HISTORY_MAX_MESSAGES)
  // Read from the latest at least, to check it, when no person's message is within reach.
  const from = pickHistoryStart(sizes) ?? sizes[0]?.seq
  const rows = from === undefined ? [] : await selectMessagesFrom(threadId, from)
  const latest = rows.at(-1)
  const answered = answer(latest && toUIMessage(latest))
  const bytes = await updateMessageParts(threadId, answered.id, answered.parts)
  if (bytes !== undefined && sizes[0]?.seq === latest?.seq) sizes[0] = { ...sizes[0]!, bytes }
  const start = pickHistoryStart(sizes)
  if (start === undefined) return { messages: [], leftOut: 0 }
  const earlier = rows.slice(0, -1).filter((row) => row.seq >= start)
  return {
    messages: [...earlier.map(toUIMessage), answered],
    leftOut: await countLeftOut(threadId, sizes, HISTORY_MAX_MESSAGES, start),
  }
}
