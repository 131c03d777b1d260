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
  type SystemModelMessage,
  type Tool,
} from 'ai'
import { deriveKey } from '../keys/crypto.ts'
import { withModelRetries, type RetryNotice } from './model-retry.ts'
import type { SystemPrompt } from './system-prompt.ts'
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
  system: SystemPrompt
  messages: ModelMessage[]
  tools: ConversationTools
  maxSteps: number
  signal: AbortSignal
  onStepFinish?: (step: StepResult<ConversationTools>) => void
  /**
   * Checked after each step that would be followed by another (after onStepFinish), with the
   * number of steps so far: true stops the loop before the next one.
   */
  stopAfterStep?: (steps: number) => boolean | PromiseLike<boolean>
  onError?: (error: unknown) => void
  /** Told before each retry of a failed model call, and (null) once a retry got through. */
  onRetry?: (notice: RetryNotice | null) => void
}

/**
 * Anthropic reads a prompt as tools, then system, then messages, and caches the prefix that ends at
 * a block marked `cache_control`. The mark goes on the stable part of the system prompt, so the
 * tool definitions and that part are written once and read back (at a tenth of the price) by the
 * conversation's later model calls and by other conversations with the same tools within the
 * cache's five minutes. Other providers ignore the option.
 */
export const CACHED = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const

/** The system prompt as the model gets it: the cached stable part, then this conversation's context. */
export function systemMessages(prompt: SystemPrompt): SystemModelMessage[] {
  return [
    { role: 'system', content: prompt.stable, providerOptions: CACHED },
    { role: 'system', content: prompt.context },
  ]
}

/** Starts one agent turn; the caller consumes the result as a UI message stream. */
export function startAgentLoop(input: AgentLoopInput) {
  const { stopAfterStep } = input
  return streamText({
    // Retried by the wrapper (same policy as the SDK's), so a wait can be shown while it lasts.
    ...withModelRetries(input.model, { onRetry: input.onRetry }),
    system: systemMessages(input.system),
    messages: input.messages,
    tools: input.tools,
    stopWhen: stopAfterStep
      ? [stepCountIs(input.maxSteps), ({ steps }) => stopAfterStep(steps.length)]
      : stepCountIs(input.maxSteps),
    abortSignal: input.signal,
    // Signs approval requests so a confirmation can only answer a request this server issued.
    experimental_toolApprovalSecret: deriveKey(undefined, 'tool approvals v1'),
    onStepFinish: input.onStepFinish,
    onError: ({ error }) => input.onError?.(error),
  })
}

/**
 * Sums token usage over steps (kept step by step so a failed turn still reports what it spent).
 * `inputTokens` counts every input token, cached or not; `cacheReadTokens` and `cacheWriteTokens`
 * say how many of them were read from or written to the provider's prompt cache (priced apart).
 */
export function createUsageMeter() {
  const total = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }
  return {
    total,
    add(step: {
      usage: {
        inputTokens?: number
        outputTokens?: number
        inputTokenDetails?: { cacheReadTokens?: number; cacheWriteTokens?: number }
      }
    }) {
      total.inputTokens += step.usage.inputTokens ?? 0
      total.outputTokens += step.usage.outputTokens ?? 0
      total.cacheReadTokens += step.usage.inputTokenDetails?.cacheReadTokens ?? 0
      total.cacheWriteTokens += step.usage.inputTokenDetails?.cacheWriteTokens ?? 0
    },
  }
}
