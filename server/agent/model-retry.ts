/**
 * Retries of a model call that failed for a reason worth retrying (429, 5xx, 529 overloaded, a
 * dropped connection), done here rather than inside the AI SDK so the caller can tell the person
 * while it waits ("the model is overloaded; retrying") and say when a retry got through. The
 * policy is the SDK's own: 2 retries, 2 s then 4 s apart, or what the provider's retry-after asks
 * (under a minute).
 */
import { APICallError, wrapLanguageModel, type LanguageModel } from 'ai'

/** Tries after the first; the AI SDK's default. */
export const MODEL_RETRIES = 2
const FIRST_DELAY_MS = 2_000
const MAX_RETRY_AFTER_MS = 60_000

/** A retry about to happen, as the chat shows it. */
export type RetryNotice = {
  /** The attempt about to start (2 = the first retry) and how many there are in all. */
  attempt: number
  attempts: number
  delayMs: number
  /** The provider's status (529, 503, 429, …), null when the connection failed. */
  status: number | null
}

export type RetryOptions = {
  /** Called before each wait; null once a retried call got through. */
  onRetry?: (notice: RetryNotice | null) => void
  /** For tests: the waits of the policy above, shortened. */
  delayMs?: (attempt: number, error: unknown) => number
}

/**
 * The model with its streamed calls retried as above, and the `maxRetries` to give the AI SDK (0:
 * the wrapper retries). A model this wrapper cannot wrap keeps the SDK's own retries, unannounced.
 */
export function withModelRetries(
  model: LanguageModel,
  options: RetryOptions = {},
): { model: LanguageModel; maxRetries: number } {
  if (typeof model === 'string' || model.specificationVersion !== 'v3')
    return { model, maxRetries: MODEL_RETRIES }
  const wrapped = wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapStream: async ({ doStream, params }) => {
        for (let attempt = 1; ; attempt++) {
          try {
            const result = await doStream()
            if (attempt > 1) options.onRetry?.(null)
            return result
          } catch (error) {
            if (attempt > MODEL_RETRIES || !isRetryable(error) || params.abortSignal?.aborted) throw error
            const delayMs = (options.delayMs ?? retryDelayMs)(attempt, error)
            const status = APICallError.isInstance(error) ? (error.statusCode ?? null) : null
            options.onRetry?.({ attempt: attempt + 1, attempts: MODEL_RETRIES + 1, delayMs, status })
            await sleep(delayMs, params.abortSignal)
          }
        }
      },
    },
  })
  return { model: wrapped, maxRetries: 0 }
}

const isRetryable = (error: unknown) => APICallError.isInstance(error) && error.isRetryable

/** 2 s, 4 s, …; or the provider's retry-after(-ms) when it asks for less than a minute. */
export function retryDelayMs(attempt: number, error: unknown): number {
  const backoff = FIRST_DELAY_MS * 2 ** (attempt - 1)
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined
  const asked = headers?.['retry-after-ms']
    ? Number.parseFloat(headers['retry-after-ms'])
    : headers?.['retry-after']
      ? Number.parseFloat(headers['retry-after']) * 1000
      : Number.NaN
  return Number.isFinite(asked) && asked >= 0 && asked < MAX_RETRY_AFTER_MS ? asked : backoff
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(done, ms)
    function done() {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }
    function aborted() {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', aborted, { once: true })
  })
}
