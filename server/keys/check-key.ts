/**
 * Asks the provider whether a key works before it is stored (decision 0514), with a request that
 * costs nothing: the list of models. Only a 401 is the key's fault (as in decision 0505); any other
 * outcome (a 403, a 429, a 5xx, no answer, no server configured) says nothing about the key, so the
 * key is saved all the same and the person told it could not be checked, and why.
 *
 * The request goes to the operator's provider (ANTHROPIC_BASE_URL, OPENAI_COMPATIBLE_BASE_URL), as
 * every model call does, with the server's plain fetch: no tenant chooses where it goes.
 */
import { anthropicBaseUrl, env } from '../env.ts'
import { refusalReason } from './refusal-reason.ts'
import { providerName, type ModelProvider } from './schema.ts'

/** How long the provider has to answer; a save must not hang on a provider that does not. */
const CHECK_TIMEOUT_MS = 5_000

/** What the provider said of a key: it works, it refused it (a 401), or the check itself failed. */
export type KeyVerdict =
  { outcome: 'accepted' } | { outcome: 'refused'; reason: string } | { outcome: 'unchecked'; reason: string }

/** The request that lists models with `apiKey`, or why there is none to make. */
function listingRequest(
  provider: ModelProvider,
  apiKey: string,
): { url: string; headers: HeadersInit } | string {
  if (provider === 'anthropic') {
    return {
      url: `${withoutSlash(anthropicBaseUrl())}/models?limit=1`,
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
    }
  }
  const base = env().OPENAI_COMPATIBLE_BASE_URL
  if (!base) return 'the server has no OPENAI_COMPATIBLE_BASE_URL to ask'
  return { url: `${withoutSlash(base)}/models`, headers: { authorization: `Bearer ${apiKey}` } }
}

const withoutSlash = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : url)

/** Asks `provider` whether `apiKey` works, within {@link CHECK_TIMEOUT_MS}; never throws. */
export async function checkKeyWithProvider(provider: ModelProvider, apiKey: string): Promise<KeyVerdict> {
  const request = listingRequest(provider, apiKey)
  if (typeof request === 'string') return { outcome: 'unchecked', reason: request }
  const name = providerName(provider)
  try {
    const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS)
    const response = await fetch(request.url, { headers: request.headers, signal, redirect: 'error' })
    const body = await response.text()
    if (response.ok) return { outcome: 'accepted' }
    const reason = refusalReason(response.status, body, apiKey)
    if (response.status === 401) return { outcome: 'refused', reason }
    return { outcome: 'unchecked', reason: `${name} answered ${reason}` }
  } catch (err) {
    return { outcome: 'unchecked', reason: `${name} could not be reached (${failureOf(err)})` }
  }
}

/** Why a request got no answer, in a few words (never the key: neither carries it). */
function failureOf(err: unknown): string {
  if (err instanceof DOMException && err.name === 'TimeoutError') {
    return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`
  }
  const cause = (err as { cause?: { code?: unknown } }).cause
  if (typeof cause?.code === 'string') return cause.code
  return err instanceof Error ? err.message : String(err)
}
