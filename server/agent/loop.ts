/**
 * The agent loop, shared by chat and job runs: the AI SDK's tool loop with hard bounds on steps
 * (stopWhen) and on wall-clock time (the abort signal), and HMAC-signed tool approvals.
 */
import {
  stepCountIs,
  streamText,
  type LanguageModel,
  type ModelMessage,
  type StepResult,
  type Tool,
} from 'ai'
import { deriveKey } from '../keys/crypto.ts'
import { withModelRetries, type RetryNotice } from './model-retry.ts'
import type { AgentTools } from './tools/index.ts'

/** The registry's tools plus those of connected MCP servers (`<server>__<tool>`, see mcp-tools.ts). */
export type ConversationTools = AgentTools & Record<string, Tool>

/** Model calls per chat turn: enough for look-up, create and a reply, small enough to stop a loop. */
export const CHAT_MAX_STEPS = 12
/** Model calls per job run: unattended work may need more tool calls than a chat turn. */
export const RUN_MAX_STEPS = 24
/** Wall-clock limit of one chat turn. Runs are bounded by their job's timeoutMinutes instead. */
export const CHAT_TIMEOUT_MS = 3 * 60_000

export type AgentLoopInput = {
  model: LanguageModel
  system: string
  messages: ModelMessage[]
  tools: ConversationTools
  maxSteps: number
  signal: AbortSignal
  onStepFinish?: (step: StepResult<ConversationTools>) => void
  /** Checked after each step (after onStepFinish): true stops the loop before the next one. */
  stopAfterStep?: () => boolean
  onError?: (error: unknown) => void
  /** Told before each retry of a failed model call, and (null) once a retry got through. */
  onRetry?: (notice: RetryNotice | null) => void
}

/** Starts one agent turn; the caller consumes the result as a UI message stream. */
export function startAgentLoop(input: AgentLoopInput) {
  return streamText({
    // Retried by the wrapper (same policy as the SDK's), so a wait can be shown while it lasts.
    ...withModelRetries(input.model, { onRetry: input.onRetry }),
    system: input.system,
    messages: input.messages,
    tools: input.tools,
    stopWhen: input.stopAfterStep
      ? [stepCountIs(input.maxSteps), input.stopAfterStep]
      : stepCountIs(input.maxSteps),
    abortSignal: input.signal,
    // Signs approval requests so a confirmation can only answer a request this server issued.
    experimental_toolApprovalSecret: deriveKey(undefined, 'tool approvals v1'),
    onStepFinish: input.onStepFinish,
    onError: ({ error }) => input.onError?.(error),
  })
}

/** Sums token usage over steps (kept step by step so a failed turn still reports what it spent). */
export function createUsageMeter() {
  const total = { inputTokens: 0, outputTokens: 0 }
  return {
    total,
    add(step: { usage: { inputTokens?: number; outputTokens?: number } }) {
      total.inputTokens += step.usage.inputTokens ?? 0
      total.outputTokens += step.usage.outputTokens ?? 0
    },
  }
}
