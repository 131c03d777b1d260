/**
 * Approvals a harness waits for in chat: its hook is holding a tool call the policy marks `ask`
 * until the person in the conversation answers (or the wait runs out, which is a no). Only the
 * person who asked the harness may answer; an answer for another's approval is a 404, as if it
 * did not exist. Pending approvals live in this process, beside the run they belong to.
 */
import { randomBytes } from 'node:crypto'
import { notFound } from '../lib/errors.ts'
import { singleton } from '../lib/singleton.ts'

type Pending = { userId: string; settle: (approved: boolean) => void }

// Held by the chat turn running the harness, answered by a route: one map per process.
const pending = singleton('harness-approvals', () => new Map<string, Pending>())

/** Opens an approval for `userId`; `answer` resolves true only when they allow it before `timeoutMs`. */
export function openApproval(userId: string, timeoutMs: number, signal?: AbortSignal) {
  const id = `apr_${randomBytes(12).toString('base64url')}`
  const answer = new Promise<boolean>((resolve) => {
    const settle = (approved: boolean) => {
      if (!pending.delete(id)) return
      clearTimeout(timer)
      signal?.removeEventListener('abort', no)
      resolve(approved)
    }
    const no = () => settle(false)
    const timer = setTimeout(no, timeoutMs)
    signal?.addEventListener('abort', no, { once: true })
    pending.set(id, { userId, settle })
  })
  return { id, answer }
}

/** The person's answer. @throws 404 when the approval is not theirs, or no longer waits. */
export function answerApproval(userId: string, id: string, approved: boolean): void {
  const entry = pending.get(id)
  if (!entry || entry.userId !== userId) throw notFound('No such approval is waiting')
  entry.settle(approved)
}
