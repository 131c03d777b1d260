/**
 * Stopping a chat turn: the person's Stop button ends the turn's agent loop when this instance
 * runs it, and stops the commands its tools started wherever they run (a connected machine gets
 * the stop now, or when it reconnects). Leaving the page does not stop a turn; only this does, or
 * its person leaving the organisation or losing the role it started with (decision 0476): every
 * instance hears of that and ends the turns it runs for them the same way. Stop reaches the turn on
 * whichever instance runs it (decision 0492). Deleting a chat stops its turn the way Stop does,
 * then deletes it (decision 0487). Deleting an organisation ends every turn in it (decision 0521).
 */
import { placeLost } from '../accounts/place-kept.ts'
import type { Caller } from '../auth/caller.ts'
import { getDbHandle, type DbHandle } from '../db/client.ts'
import {
  notifyChatStopped,
  onChatStopped,
  onOrganizationDeleted,
  onPlaceChanged,
  type ChatStop,
  type PlaceChange,
} from '../db/signal.ts'
import { stopCommands } from '../environments/providers/providers.ts'
import { notFound } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { singleton } from '../lib/singleton.ts'
import { deleteOwnThread, findOwnThread } from '../runs/threads.ts'

/** A turn this instance runs: its stop, whose it is, and when it started (ms since the epoch). */
type Turn = { controller: AbortController; caller: Caller; startedAt: number }

const running = singleton('agent.chat-turns', () => new Map<string, Turn>())
/** The place-change subscription of each database this process has run turns on. */
const listening = singleton('agent.chat-turns.listening', () => new WeakMap<DbHandle, Promise<unknown>>())

/**
 * Registers a turn of `threadId` by `caller`; the signal aborts on Stop, or when the caller's place
 * is lost. Call `done` when the turn ends.
 */
export async function trackTurn(
  threadId: string,
  caller: Caller,
): Promise<{ signal: AbortSignal; done: () => void }> {
  const handle = getDbHandle()
  if (!listening.has(handle)) {
    const subscribed = Promise.all([
      onPlaceChanged((change) => void endTurnsOf(change)),
      onChatStopped((stop) => void endTurnHere(stop)),
      onOrganizationDeleted(({ orgId }) => void endTurnsIn(orgId)),
    ]).catch((err: unknown) => {
      listening.delete(handle)
      logger.warn(
        { err },
        'chat turns will not hear of departures or stops from other instances: could not listen',
      )
    })
    listening.set(handle, subscribed)
  }
  await listening.get(handle)
  const controller = new AbortController()
  running.get(threadId)?.controller.abort(new Error('a newer turn of the thread started'))
  running.set(threadId, { controller, caller, startedAt: Date.now() })
  return {
    signal: controller.signal,
    done: () => {
      if (running.get(threadId)?.controller === controller) running.delete(threadId)
    },
  }
}

/** Ends this instance's turns of `change`'s person whose place is lost, and their commands. */
async function endTurnsOf(change: PlaceChange) {
  for (const [threadId, { controller, caller }] of running) {
    if (caller.orgId !== change.orgId || caller.userId !== change.userId) continue
    const lost = await placeLost(caller, 'this conversation').catch(() => null)
    if (!lost) continue
    controller.abort(new Error(lost.message))
    await stopCommands({ threadId }).catch((err: unknown) =>
      logger.warn({ err, threadId }, "could not stop a departed member's commands"),
    )
  }
}

/** Ends this instance's turns in a deleted organisation, and their commands. */
async function endTurnsIn(orgId: string) {
  for (const [threadId, { controller, caller }] of running) {
    if (caller.orgId !== orgId) continue
    controller.abort(new Error('This organisation was deleted.'))
    await stopCommands({ threadId }).catch((err: unknown) =>
      logger.warn({ err, threadId }, "could not stop a deleted organisation's commands"),
    )
  }
}

/**
 * Ends the stopped thread's turn and its commands if this instance runs it (told by another, or by
 * itself). A turn started after the stop was asked (the person's next message, sent at once) is
 * not the one stopped and goes on.
 */
async function endTurnHere({ threadId, reason, at }: ChatStop) {
  const turn = running.get(threadId)
  if (!turn || turn.startedAt > at) return
  turn.controller.abort(new Error(reason))
  await stopCommands({ threadId }).catch((err: unknown) =>
    logger.warn({ err, threadId }, "could not stop a stopped chat turn's commands"),
  )
}

/**
 * Ends `threadId`'s turn wherever it runs: here at once, and every other instance is told (a turn
 * runs on the instance its request reached, and Stop may reach another, decision 0492). Its
 * commands are stopped wherever they run. `turnStopped` says whether this instance ran it.
 */
async function endTurn(threadId: string, reason: string) {
  const turn = running.get(threadId)
  turn?.controller.abort(new Error(reason))
  const [machines] = await Promise.all([
    stopCommands({ threadId }),
    notifyChatStopped({ threadId, reason, at: Date.now() }),
  ])
  return { turnStopped: Boolean(turn), machines }
}

const chatOwner = (caller: Caller) => ({ userId: caller.userId, orgId: caller.orgId, kind: 'chat' as const })

const findOwnChat = async (caller: Caller, threadId: string) => {
  if (!(await findOwnThread(chatOwner(caller), threadId))) throw notFound(`No chat thread ${threadId}`)
}

export async function stopChat(caller: Caller, threadId: string) {
  await findOwnChat(caller, threadId)
  return { threadId, ...(await endTurn(threadId, `stopped by ${caller.name}`)) }
}

/**
 * Deletes one of the caller's chat threads with its messages (decision 0487): a turn running in it
 * is stopped first, as Stop would, then the thread goes in one statement, its messages by the
 * foreign key's cascade. 404 for anyone else's thread, as for reading it.
 */
export async function deleteChat(caller: Caller, threadId: string): Promise<void> {
  await findOwnChat(caller, threadId)
  await endTurn(threadId, 'the chat was deleted')
  if (!(await deleteOwnThread(chatOwner(caller), threadId))) throw notFound(`No chat thread ${threadId}`)
}
