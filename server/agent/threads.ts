/**
 * Chat threads as the chat panel sees them: a person's own conversations in their active
 * organisation, reopened a page of messages at a time. Run transcripts are threads too (kind 'run'), read
 * through the runs API with the job's access rules instead.
 */
import type { UIMessage } from 'ai'
import type { Caller } from '../auth/caller.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { findMessageSeq, findOwnThread, selectChatThreads, selectMessagePage } from '../runs/threads.ts'
import { nextHistoryStart, toUIMessage } from './thread-bounds.ts'

export type ThreadSummary = { id: string; title: string; createdAt: string; updatedAt: string }

const MAX_LISTED_THREADS = 50

/** The caller's chat threads here, most recently active first. */
export async function listChatThreads(caller: Caller): Promise<ThreadSummary[]> {
  const rows = await selectChatThreads({ userId: caller.userId, orgId: caller.orgId }, MAX_LISTED_THREADS)
  return rows.map((t) => ({
    id: t.id,
    title: t.title || 'Untitled chat',
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  }))
}

/** How many messages one read of a thread returns: the latest, or those before `before`. */
export const THREAD_PAGE_MESSAGES = 100

/**
 * One page of a chat thread; `nextBefore` reads the page before it, null when this is the first.
 * `historyStart` is the oldest message the next turn would send the model when it leaves earlier
 * ones out (the chat marks it), null when it would send them all (decision 0469).
 */
export type ChatThreadPage = {
  thread: ThreadSummary
  messages: UIMessage[]
  hasMore: boolean
  nextBefore: string | null
  historyStart: string | null
}

/**
 * One of the caller's chat threads with a page of its messages: the latest ones, or those before
 * message `before` (decision 0462). 404 for anyone else's thread; 400 when `before` is not one of its messages.
 */
export async function getChatThread(
  caller: Caller,
  id: string,
  { before }: { before?: string | null } = {},
): Promise<ChatThreadPage> {
  const thread = await findOwnThread({ userId: caller.userId, orgId: caller.orgId, kind: 'chat' }, id)
  if (!thread) throw notFound(`No chat thread ${id}`)
  const beforeSeq = before ? await findMessageSeq(id, before) : undefined
  if (before && beforeSeq === undefined)
    throw badRequest(`before: no message ${before} in this chat`, 'before')
  const [page, historyStart] = await Promise.all([
    selectMessagePage(id, { limit: THREAD_PAGE_MESSAGES, beforeSeq }),
    nextHistoryStart(id),
  ])
  const messages = page.rows.filter((m) => m.role === 'user' || m.role === 'assistant').map(toUIMessage)
  return {
    thread: {
      id: thread.id,
      title: thread.title || 'Untitled chat',
      createdAt: thread.createdAt.toISOString(),
      updatedAt: thread.updatedAt.toISOString(),
    },
    messages,
    hasMore: page.hasMore,
    nextBefore: page.hasMore ? (page.rows[0]?.id ?? null) : null,
    historyStart,
  }
}
