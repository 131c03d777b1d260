/**
 * The minimal executor: one model call with the job's instructions as the user message, the
 * reply as the transcript. No tools yet; the agent issue replaces it behind RunExecutor.
 */
import { generateText } from 'ai'
import { resolveModel } from './model.ts'
import { RunFailure, type RunExecutor } from '../runs/executor.ts'

export type ModelExecutorOptions = {
  /** The AI SDK's own retries on 429/5xx (default 2); the job's `retries` policy comes on top. */
  maxRetries?: number
}

export function createModelExecutor(options: ModelExecutorOptions = {}): RunExecutor {
  return async ({ job, signal }) => {
    const model = resolveModel()
    try {
      const result = await generateText({
        model,
        system:
          `You are Clockwork's agent, running the scheduled job "${job.name}" unattended. ` +
          'Carry out the instructions and reply with the result.',
        prompt: job.instructions,
        abortSignal: signal,
        maxRetries: options.maxRetries ?? 2,
      })
      return {
        transcript: [{ role: 'assistant', parts: [{ type: 'text', text: result.text }] }],
        usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
      }
    } catch (err) {
      if (signal.aborted) throw err
      const message = err instanceof Error ? err.message : String(err)
      throw new RunFailure(`The model call failed: ${message}`)
    }
  }
}
