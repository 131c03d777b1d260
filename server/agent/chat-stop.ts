/**
 * Stopping a chat turn: the person's Stop button ends the turn's agent loop when this instance
 * runs it, and stops the commands its tools started wherever they run (a connected machine gets
 * the stop now, or when it reconnects). Leaving the page does not stop a turn; only this does.
 */
import type { Caller } from '../auth/caller.ts'
import { stopCommands } from '../environments/providers/providers.ts'
import { notFound } from '../lib/errors.ts'
import { singleton } from '../lib/singleton.ts'
import { findOwnThread } from '../runs/threads.ts'

const running = singleton('agent.chat-turns', () => new Map<string, AbortController>())

/** Registers a turn of `threadId`; the signal aborts on Stop. Call `done` when the turn ends. */
export function trackTurn(threadId: string): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController()
  running.get(threadId)?.abort(new Error('a newer turn of the thread started'))
  running.set(threadId, controller)
  return {
    signal: controller.signal,
    done: () => {
      if (running.get(threadId) === controller) running.delete(threadId)
    },
  }
}

export async function stopChat(caller: Caller, threadId: string) {
  const owner = { userId: caller.userId, orgId: caller.orgId, kind: 'chat' as const }
  if (!(await findOwnThread(owner, threadId))) throw notFound(`No chat thread ${threadId}`)
  const controller = running.get(threadId)
  controller?.abort(new Error(`stopped by ${caller.name}`))
  const machines = await stopCommands({ threadId })
  return { threadId, turnStopped: Boolean(controller), machines }
}
