/**
 * What a chat request may carry, and how it is folded into the stored thread. The server's copy
 * of the thread is the truth: the browser sends only its new message (a person's text) or, to
 * answer a confirmation, the assistant message with its approval answers, of which only those
 * answers are taken. So a browser cannot make up tool calls or results, and the model cannot
 * approve its own request (approvals only ever come from the person's next request).
 */
import type { UIMessage } from 'ai'
import { z } from 'zod'
import { badRequest } from '../lib/errors.ts'

/** Longest chat message a person may send, in characters. */
export const MAX_CHAT_TEXT = 20_000

export const ChatRequest = z.object({
  threadId: z.string().max(100).optional().describe('The thread to continue; a new one starts without it'),
  message: z.object({
    id: z.string().max(200),
    role: z.enum(['user', 'assistant']),
    parts: z.array(z.record(z.string(), z.unknown())).max(500),
  }),
  retry: z
    .boolean()
    .optional()
    .describe(
      "Answer the thread's last message again after a turn that failed before replying; `message` repeats it",
    ),
})
export type ChatRequest = z.infer<typeof ChatRequest>

type ToolPartLike = {
  type: string
  state?: string
  approval?: { id: string; approved?: boolean; reason?: string }
}

const isToolPart = (part: unknown): part is ToolPartLike =>
  typeof part === 'object' && part !== null && String((part as { type?: unknown }).type).startsWith('tool-')

/** The person's text, from the text parts of their message only. @throws 400 when empty or too long. */
export function readUserText(message: ChatRequest['message']): string {
  const text = message.parts
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n')
    .trim()
  if (!text) throw badRequest('message: type something to send', 'message')
  if (text.length > MAX_CHAT_TEXT)
    throw badRequest(`message: must be at most ${MAX_CHAT_TEXT} characters`, 'message')
  return text
}

/**
 * A person who writes instead of answering a pending confirmation has declined it: the stored
 * request becomes a denial, so the model sees it was not done (and the call is never run).
 */
export function declinePendingApprovals(message: UIMessage): UIMessage | null {
  let changed = false
  const parts = message.parts.map((part) => {
    if (!isToolPart(part) || part.state !== 'approval-requested' || !part.approval) return part
    changed = true
    return {
      ...part,
      state: 'output-denied',
      approval: {
        ...part.approval,
        approved: false,
        reason: 'The person did not confirm; they wrote a new message.',
      },
    }
  })
  return changed ? ({ ...message, parts } as UIMessage) : null
}

/**
 * Applies the person's answers (approve / decline) from `sent` to the stored assistant message.
 * Only pending requests of the stored copy can change, and only their `approved` flag.
 * @throws 400 when `sent` answers nothing that is pending.
 */
export function applyApprovalAnswers(stored: UIMessage, sent: ChatRequest['message']): UIMessage {
  const answers = new Map<string, boolean>()
  for (const part of sent.parts) {
    if (!isToolPart(part) || part.state !== 'approval-responded' || !part.approval) continue
    if (typeof part.approval.id === 'string' && typeof part.approval.approved === 'boolean') {
      answers.set(part.approval.id, part.approval.approved)
    }
  }
  let applied = 0
  const parts = stored.parts.map((part) => {
    if (!isToolPart(part) || part.state !== 'approval-requested' || !part.approval) return part
    const approved = answers.get(part.approval.id)
    if (approved === undefined) return part
    applied++
    const reason = approved ? 'The person confirmed.' : 'The person declined.'
    return { ...part, state: 'approval-responded', approval: { ...part.approval, approved, reason } }
  })
  if (applied === 0) throw badRequest('message: nothing here is waiting for your confirmation', 'message')
  return { ...stored, parts } as UIMessage
}
