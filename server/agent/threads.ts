/**
 * Chat threads as the chat panel sees them: a person's own conversations in their active
 * organisation, reopened with every message. Run transcripts are threads too (kind 'run'), read
 * through the runs API with the job's access rules instead.
 */
import type { UIMessage } from 'ai'
import type { Caller } from '../auth/caller.ts'
import { notFound } from '../lib/errors.ts'
import { findOwnThread, selectChatThreads, selectThreadMessages, type MessageRow } from '../runs/threads.ts'

export type ThreadSummary = { id: string; title: string; createdAt: string; updatedAt: string }

const MAX_LISTED_THREADS = 50

/** A stored message as an AI SDK UI message. */
export function toUIMessage(row: Pick<MessageRow, 'id' | 'role' | 'parts'>): UIMessage {
  return {
    id: row.id,
    role: row.role === 'user' ? 'user' : 'assistant',
    parts: row.parts as UIMessage['parts'],
  }
}

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

/** One of the caller's chat threads with its messages; 404 for anyone else's. */
export async function getChatThread(
  caller: Caller,
  id: string,
): Promise<{ thread: ThreadSummary; messages: UIMessage[] }> {
  const thread = await findOwnThread({ userId: caller.userId, orgId: caller.orgId, kind: 'chat' }, id)
  if (!thread) throw notFound(`No chat thread ${id}`)
  const messages = (await selectThreadMessages(id)).filter((m) => m.role === 'user' || m.role === 'assistant')
  return {
    thread: {
      id: thread.id,
      title: thread.title || 'Untitled chat',
      createdAt: thread.createdAt.toISOString(),
      updatedAt: thread.updatedAt.toISOString(),
    },
    messages: messages.map(toUIMessage),
  }
}
