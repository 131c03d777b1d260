/**
 * Chat: one turn of a conversation with the agent, streamed to the browser as an AI SDK UI
 * message stream (`POST /_agent-native/agent/chat`). The thread lives on the server: each turn
 * stores the person's message first, then the agent's reply when the stream ends (even if the
 * browser went away), so a thread can be reopened as it was.
 */
import {
  consumeStream,
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
} from 'ai'
import type { Caller } from '../auth/caller.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { applyApprovalAnswers, ChatRequest, declinePendingApprovals, readUserText } from './chat-request.ts'
import { CHAT_MAX_STEPS, CHAT_TIMEOUT_MS, startAgentLoop } from './loop.ts'
import { describeModelError } from './model-errors.ts'
import type { RetryNotice } from './model-retry.ts'
import { resolveModel } from './model.ts'
import { dropChatTurn, openChatTurn, settleChatTurn } from './chat-turns.ts'
import { createRunSpend } from './run-spend.ts'
import { usd } from '../runs/budget.ts'
import { callReserveUsd } from './budget.ts'
import { buildChatSystemPrompt, withContext } from './system-prompt.ts'
import { findOwnThread, updateMessageParts } from '../runs/threads.ts'
import {
  addPersonMessage,
  answerLatest,
  appendReplyWithinLimit,
  insertChatThreadWithinLimit,
  readHistory,
  type History,
} from './thread-bounds.ts'
import { loadExecution } from './execution.ts'
import { trackTurn } from './chat-stop.ts'
import { createAgentTools } from './tools/index.ts'
import { loadMcpTools, withMcpNote } from './mcp-tools.ts'
import { whileMember } from './while-member.ts'

/**
 * Metadata on the streamed reply: which thread it belongs to (a new chat learns its id here), and
 * the oldest message this turn sent the model when it left earlier ones out, else null (0469).
 */
export type ChatMessageMetadata = { threadId: string; historyStart: string | null }

/**
 * A transient part of the stream (never stored): the model call failed and is retried after a
 * wait (RetryNotice), or null once a retry got through. The chat shows "retrying" meanwhile.
 */
export type ChatRetryPart = { type: 'data-retry'; data: RetryNotice | null; transient: true }

const TITLE_LENGTH = 80

/** Why a turn on the deployment's key stopped: what it spent, the cap, and how to go on. */
const overTurnCap = (capUsd: number, spentUsd: number) =>
  `Stopped: this turn spent ${usd(spentUsd)}, over this server's cap of ${usd(capUsd)} per turn on its own ` +
  'model key (DEPLOYMENT_KEY_MAX_RUN_COST_USD). Add your own key under Settings → Models to go further, ' +
  'or ask for less at a time.'

/**
 * What the model is told when the history leaves earlier messages out (decision 0469). It goes in
 * the system prompt's context, after the cached stable part, so the cache still hits.
 */
export const leftOutNote = (n: number) =>
  `${n} earlier message${n === 1 ? ' of this conversation is' : 's of this conversation are'} not included. ` +
  'If the person refers to something you cannot see, say so and suggest restating it or starting a new chat.'

/**
 * Folds the request into the stored thread and returns the history to answer: the thread's latest
 * messages within the budget (decision 0462), never the whole thread.
 */
async function prepareThread(
  caller: Caller,
  request: ChatRequest,
): Promise<{ threadId: string; history: History }> {
  const owner = { userId: caller.userId, orgId: caller.orgId, kind: 'chat' as const }
  const { message } = request
  if (message.role === 'assistant') {
    if (!request.threadId)
      throw badRequest('threadId: a confirmation answers a message in an existing thread', 'threadId')
    if (!(await findOwnThread(owner, request.threadId))) throw notFound(`No chat thread ${request.threadId}`)
    const history = await answerLatest(request.threadId, (last) => {
      if (!last || last.role !== 'assistant' || last.id !== message.id) {
        throw badRequest('message: only the latest reply can be answered', 'message')
      }
      return applyApprovalAnswers(last, message)
    })
    return { threadId: request.threadId, history }
  }

  const text = readUserText(message)
  let threadId = request.threadId
  if (threadId) {
    if (!(await findOwnThread(owner, threadId))) throw notFound(`No chat thread ${threadId}`)
  } else {
    threadId = newId('thr')
    await insertChatThreadWithinLimit({
      id: threadId,
      orgId: caller.orgId,
      userId: caller.userId,
      title: text.slice(0, TITLE_LENGTH),
    })
  }
  const last = await addPersonMessage(threadId, text, request.retry === true)
  // Declined only once the message is stored: a turn refused for a full thread changes nothing.
  const declined = last?.role === 'assistant' ? declinePendingApprovals(last) : null
  if (declined) await updateMessageParts(threadId, declined.id, declined.parts)
  return { threadId, history: await readHistory(threadId) }
}

/**
 * Answers one chat turn as a streamed Response. A missing model key is a 503 JSON error before
 * anything is stored; a bad request a 400; another person's thread a 404.
 */
export async function streamChat(caller: Caller, body: unknown): Promise<Response> {
  const request = parseInput(ChatRequest, body)
  const resolved = await resolveModel({ kind: 'chat', userId: caller.userId, orgId: caller.orgId })
  // Counted before the thread is touched: a turn over the day's limit stores nothing (429).
  const turnId = newId('turn')
  await openChatTurn(caller, turnId, resolved.keySource, callReserveUsd(resolved.choice))
  const { threadId, history: read } = await prepareThread(caller, request).catch(async (err: unknown) => {
    await dropChatTurn(turnId)
    throw err
  })
  // The turn's spending, its harnesses' included: on the deployment's key it has the server's cap
  // per run, which stops the loop after the step that crosses it (decision 0454).
  const spend = createRunSpend(resolved, null, { id: turnId, orgId: caller.orgId, kind: 'turn' })
  const { cap } = spend.shared
  const [execution, mcp] = await Promise.all([loadExecution(caller), loadMcpTools(caller)])
  const tools = whileMember(caller, {
    ...createAgentTools({ caller, mode: 'chat', threadId, turnId, execution, runSpend: spend.shared }),
    ...mcp.tools,
  })
  const turn = await trackTurn(threadId, caller)
  const history = read.messages
  const historyStart = read.leftOut > 0 ? (history[0]?.id ?? null) : null
  const messages = await convertToModelMessages(history, { tools, ignoreIncompleteToolCalls: true })
  const describe = (err: unknown) => describeModelError(err, [resolved.apiKey])
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      const result = startAgentLoop({
        model: resolved.model,
        system: withContext(buildChatSystemPrompt(caller, new Date()), (c) =>
          withMcpNote(read.leftOut > 0 ? `${c}\n${leftOutNote(read.leftOut)}` : c, mcp),
        ),
        messages,
        tools,
        maxSteps: CHAT_MAX_STEPS,
        signal: AbortSignal.any([AbortSignal.timeout(CHAT_TIMEOUT_MS), turn.signal]),
        onStepFinish: (step) => spend.step(step),
        stopAfterStep: async (steps) => {
          const stop = await spend.stopAfterStep(steps)
          if (stop) {
            const spent = spend.shared.spentUsd()
            const overCap = cap !== null && spent > cap.usd
            // Otherwise the server's daily budget for its key stopped the turn (decision 0455).
            const errorText = overCap ? overTurnCap(cap.usd, spent) : (spend.failure() ?? 'Stopped.')
            writer.write({ type: 'error', errorText })
          }
          return stop
        },
        onRetry: (notice) => writer.write({ type: 'data-retry', data: notice, transient: true }),
        onError: (err) =>
          logger.warn({ threadId, userId: caller.userId, error: describe(err) }, 'chat turn failed'),
      })
      writer.merge(
        result.toUIMessageStream({
          originalMessages: history,
          generateMessageId: () => newId('msg'),
          messageMetadata: ({ part }): ChatMessageMetadata | undefined =>
            part.type === 'start' ? { threadId, historyStart } : undefined,
          onError: describe,
          onFinish: async ({ responseMessage, isContinuation }) => {
            turn.done()
            // A stopped turn has paid for the call it was making: it counts too (decision 0533).
            await settleChatTurn(turnId, spend.final()).catch((err: unknown) =>
              logger.error({ err, turnId }, 'could not record the chat turn'),
            )
            try {
              if (isContinuation)
                await updateMessageParts(threadId, responseMessage.id, responseMessage.parts)
              else if (responseMessage.parts.length > 0) {
                const stored = await appendReplyWithinLimit({
                  id: responseMessage.id,
                  threadId,
                  parts: responseMessage.parts,
                })
                if (!stored) logger.warn({ threadId }, 'chat reply not stored: the thread is full')
              }
            } catch (err) {
              logger.error({ err, threadId }, 'could not store the chat reply')
            }
          },
        }),
      )
    },
    onError: describe,
  })
  return createUIMessageStreamResponse({
    stream,
    // Reads the stream to its end even when the browser leaves, so onFinish stores the reply.
    consumeSseStream: ({ stream }) => consumeStream({ stream }),
  })
}
