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
import type { CallTokens } from './pricing.ts'
import type { SystemPrompt } from './system-prompt.ts'
import { notesOptions } from './thinking.ts'
import type { AgentTools } from './tools/index.ts'
import { CALL_OUTPUT_RESERVE_TOKENS } from '../runs/budget.ts'

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
  onStepFinish?: (step: StepResult<ConversationTools>) => void | Promise<void>
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
    // The model's notes between tool calls, for models that hide them unless asked (decision 0460).
    // Call-wide, unlike the cache mark, which belongs to one system block (CACHED above).
    providerOptions: notesOptions(input.model),
    // A bound on each call's output (notes included), so a budget's hold for it is its worst case.
    maxOutputTokens: CALL_OUTPUT_RESERVE_TOKENS,
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
 * Sums token usage and cost over steps (kept step by step so a failed turn still reports what it
 * spent). `inputTokens` counts every input token, cached or not. Each step is one model call and
 * is priced on its own by `price`, with the tokens it wrote to or read from the provider's prompt
 * cache: a price can depend on one call's size (long context), so summed tokens cannot be priced.
 * `costUsd` is null once a step had no price.
 */
export function createUsageMeter(price: (call: CallTokens) => number | null) {
  const total = { inputTokens: 0, outputTokens: 0, costUsd: 0 as number | null }
  return {
    total,
    add(step: { usage: StepUsage }) {
      const call = callTokens(step.usage)
      total.inputTokens += call.inputTokens
      total.outputTokens += call.outputTokens
      const usd = price(call)
      total.costUsd = total.costUsd === null || usd === null ? null : total.costUsd + usd
    },
  }
}

type StepUsage = {
  inputTokens?: number
  outputTokens?: number
  inputTokenDetails?: { cacheReadTokens?: number; cacheWriteTokens?: number }
  raw?: unknown
}

/**
 * One step's tokens. The AI SDK counts cache writes of both lifetimes together; Anthropic's own
 * usage (`raw`) says how many were for an hour, which cost more.
 */
function callTokens(usage: StepUsage): CallTokens {
  const raw = usage.raw as { cache_creation?: { ephemeral_1h_input_tokens?: unknown } } | undefined
  const forAnHour = raw?.cache_creation?.ephemeral_1h_input_tokens
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cacheReadTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
    cacheWrite1hTokens: typeof forAnHour === 'number' ? forAnHour : 0,
  }
}
