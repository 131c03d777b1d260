/**
 * What a person is told when a model call fails. Provider errors keep their status and reason;
 * any key that could appear in a message is masked first, so keys never reach a response, a
 * transcript or a run's error.
 */
import { APICallError, RetryError } from 'ai'
import { HttpError } from '../lib/errors.ts'
import { MODEL_RETRIES } from './model-retry.ts'

/** Replaces every occurrence of each secret in `text` with ••••. */
function maskSecrets(text: string, secrets: (string | null | undefined)[]): string {
  let out = text
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('••••')
  return out
}

/** A readable, secret-free sentence for a failed agent turn. */
export function describeModelError(err: unknown, secrets: (string | null | undefined)[] = []): string {
  const cause = RetryError.isInstance(err) ? err.lastError : err
  let message: string
  if (cause instanceof HttpError) message = cause.message
  else if (APICallError.isInstance(cause)) {
    const status = cause.statusCode
    if (status === 401 || status === 403) {
      message =
        `The model provider rejected the API key (${status}). Check the key in Settings → Models, ` +
        "or the deployment's key in .env."
    } else if (status === 429)
      message = 'The model provider is rate-limiting requests (429). Try again shortly.'
    else if (status === 529 || status === 503) {
      message =
        `The model provider is overloaded (${status}) and did not answer after ${MODEL_RETRIES + 1} tries. ` +
        'Try again in a moment.'
    } else message = `The model call failed${status ? ` (${status})` : ''}: ${cause.message}`
  } else if (cause instanceof Error && cause.name === 'AbortError') {
    message = 'The agent was stopped before it finished (time limit reached or cancelled).'
  } else {
    message = `The agent failed: ${cause instanceof Error ? cause.message : String(cause)}`
  }
  return maskSecrets(message, secrets)
}
