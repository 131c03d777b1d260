/** Types the chat panel reads; what each tool returns comes from the server (tool-views.tsx). */

/** A tool part of an AI SDK UI message (type "tool-<name>"), as far as the panel needs it. */
export type ToolPart = {
  type: string
  toolCallId: string
  state: string
  input?: unknown
  output?: unknown
  /** A result the tool reported while still running (e.g. its environment's build progress). */
  preliminary?: boolean
  errorText?: string
  approval?: { id: string; approved?: boolean; reason?: string }
}

import type { UIMessage } from 'ai'
import type { ChatMessageMetadata, ChatRetryPart } from '#server/agent/chat.ts'
import type { ChatThreadPage } from '#server/agent/threads.ts'

export type RetryNotice = NonNullable<ChatRetryPart['data']>

/**
 * The server's transient "retrying" part: a notice (the model call failed, the next try comes
 * after a wait), null (a retry got through), or undefined for any other data part.
 */
export function readRetryNotice(part: { type: string; data?: unknown }): RetryNotice | null | undefined {
  if (part.type !== 'data-retry') return undefined
  return (part.data as RetryNotice | null) ?? null
}

/** Metadata the server puts on replies: the thread they belong to, where the model's view began. */
export type ChatMetadata = Partial<ChatMessageMetadata>

/** One page of a stored thread (`GET /_agent-native/agent/threads/:id`). */
export type ThreadPage = Omit<ChatThreadPage, 'messages'> & { messages: UIMessage<ChatMetadata>[] }

/** The error body the chat endpoint answers with before streaming (e.g. no model key). */
export function readChatError(error: Error): { message: string; code?: string } {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: string; code?: string } }
    if (body.error?.message) return { message: body.error.message, code: body.error.code }
  } catch {
    // Not JSON: a network failure or a message from the stream.
  }
  return { message: error.message || 'The agent could not answer. Try again.' }
}
