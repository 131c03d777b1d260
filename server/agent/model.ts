/**
 * Which model the agent talks to and with whose key. AGENT_MODEL (`provider:model`) picks the
 * provider; the key comes from the first of these that has one (Settings → Models shows the result):
 *
 * | who calls              | 1st                  | 2nd                      |
 * |------------------------|----------------------|--------------------------|
 * | chat                   | the caller's own key | the deployment's env key |
 * | run, `runAs: creator`  | the creator's key    | the deployment's env key |
 * | run, `runAs: shared`   | the organisation key | the deployment's env key |
 *
 * Chat deliberately does not fall back to the organisation's key: spending it is reserved to
 * `runAs: shared` jobs, which only admins may set up, and chat must not be a way around that.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import { env, type Env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { readStoredKey, type StoredKey } from '../keys/service.ts'
import {
  describeRefusedKey,
  ModelKeyRefusedError,
  watchDeploymentKey,
  watchForRefusal,
} from './key-refusal.ts'
import { deploymentKeyVariable, providerName, type ModelProvider } from '../keys/schema.ts'
import { createCallMeter, type CallMeter } from './call-meter.ts'

/** The provider and model AGENT_MODEL names. */
export type ModelChoice = { provider: ModelProvider; modelId: string }

/** Who is asking for a model, which decides whose key is spent. */
export type ModelPurpose =
  | { kind: 'chat'; userId: string; orgId: string }
  | { kind: 'run'; runAs: 'creator' | 'shared'; userId: string; orgId: string }

/** Where the key came from; `none` only for an OpenAI-compatible server that needs no key. */
export type KeySource = 'personal' | 'org' | 'deployment' | 'none'

export type ResolvedModel = {
  model: LanguageModel
  choice: ModelChoice
  keySource: KeySource
  /** Only so error messages can mask it; never log or return it. */
  apiKey: string | null
  /** The fetch calls on this key go through: it records a stored key's refusal (decision 0505). */
  fetch: typeof fetch
  /** The model's calls (through `fetch`, metered) that no finished step has counted (decision 0533). */
  calls: CallMeter
}

/** A key found for a purpose; a stored one carries which save it is and any refusal on record. */
export type FoundKey =
  | { key: string; source: 'personal' | 'org'; stored: StoredKey }
  | { key: string; source: 'deployment'; stored: null }

/** Chat and runs cannot start: no key (or no server) is configured. The message says how to fix it. */
export class NoModelKeyError extends HttpError {
  constructor(message: string) {
    super(503, 'no_model_key', message)
    this.name = 'NoModelKeyError'
  }
}

/** Splits AGENT_MODEL ("anthropic:claude-sonnet-5-5") into provider and model id. */
export function readModelChoice(config: Env = env()): ModelChoice {
  const at = config.AGENT_MODEL.indexOf(':')
  return {
    provider: config.AGENT_MODEL.slice(0, at) as ModelProvider,
    modelId: config.AGENT_MODEL.slice(at + 1),
  }
}

const deploymentKey = (provider: ModelProvider, config: Env) =>
  (provider === 'anthropic' ? config.ANTHROPIC_API_KEY : config.OPENAI_COMPATIBLE_API_KEY) ?? null

/**
 * The key for `purpose` by the precedence table above, with where it came from; null when none. A
 * stored key the provider refused is still the one found (its refusal says so): falling back to
 * the deployment's key would move someone's spending onto the operator's key unasked.
 */
export async function resolveModelKey(
  purpose: ModelPurpose,
  provider: ModelProvider,
  config: Env = env(),
): Promise<FoundKey | null> {
  const shared = purpose.kind === 'run' && purpose.runAs === 'shared'
  const stored = shared
    ? await readStoredKey({ orgId: purpose.orgId }, provider)
    : await readStoredKey({ userId: purpose.userId }, provider)
  if (stored) return { key: stored.key, source: shared ? 'org' : 'personal', stored }
  const fallback = deploymentKey(provider, config)
  return fallback ? { key: fallback, source: 'deployment', stored: null } : null
}

/** Throws {@link ModelKeyRefusedError} when `found` is a stored key the provider refused. */
export function assertKeyNotRefused(found: FoundKey | null, provider: ModelProvider): void {
  if (found?.stored?.refused) {
    throw new ModelKeyRefusedError(describeRefusedKey(found.source, provider, found.stored.refused))
  }
}

/** The fetch for calls on `found` for `purpose`: a stored key's is watched for a refusal, the deployment's for a notice. */
function fetchFor(found: FoundKey | null, purpose: ModelPurpose, provider: ModelProvider): typeof fetch {
  if (!found) return fetch
  if (!found.stored) return watchDeploymentKey(provider, found.key)
  const notice = { orgId: purpose.orgId, userId: purpose.userId, source: found.source, provider }
  return watchForRefusal(found.stored.ref, found.key, notice)
}

/** The message shown when no key is found: it says exactly where to add one. */
function describeMissingKey(purpose: ModelPurpose, provider: ModelProvider): string {
  const envVar = deploymentKeyVariable(provider)
  const name = providerName(provider)
  const server = `or set ${envVar} in the server's .env (the deployment's key) and restart`
  if (purpose.kind === 'chat') {
    return `No ${name} API key is configured. Add your own key in Settings → Models, ${server}.`
  }
  if (purpose.runAs === 'shared') {
    return (
      `No ${name} API key for this run: the job runs as shared, and the organisation has no key. ` +
      `An admin can add the organisation key in Settings → Models, ${server}.`
    )
  }
  return (
    `No ${name} API key for this run: the job's creator has no key of their own. ` +
    `They can add one in Settings → Models, ${server}.`
  )
}

/** The language model for `purpose`; throws {@link NoModelKeyError} with the fix when none can be used. */
export async function resolveModel(purpose: ModelPurpose, config: Env = env()): Promise<ResolvedModel> {
  const choice = readModelChoice(config)
  const found = await resolveModelKey(purpose, choice.provider, config)
  assertKeyNotRefused(found, choice.provider)
  const watched = fetchFor(found, purpose, choice.provider)
  // A harness relays its calls with `watched` and meters them itself (harness/endpoint.ts).
  const calls = createCallMeter(watched, choice.provider)
  if (choice.provider === 'anthropic') {
    if (!found) throw new NoModelKeyError(describeMissingKey(purpose, 'anthropic'))
    const provider = createAnthropic({
      apiKey: found.key,
      baseURL: config.ANTHROPIC_BASE_URL,
      fetch: calls.fetch,
    })
    return {
      model: provider(choice.modelId),
      choice,
      keySource: found.source,
      apiKey: found.key,
      fetch: watched,
      calls,
    }
  }
  if (!config.OPENAI_COMPATIBLE_BASE_URL) {
    throw new NoModelKeyError(
      'AGENT_MODEL uses an OpenAI-compatible server, but OPENAI_COMPATIBLE_BASE_URL is not set. ' +
        "Set it in the server's .env (e.g. http://localhost:11434/v1) and restart.",
    )
  }
  // Local servers (Ollama, llama.cpp, vLLM) often need no key, so a missing one is not an error here.
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: config.OPENAI_COMPATIBLE_BASE_URL,
    apiKey: found?.key,
    includeUsage: true,
    fetch: calls.fetch,
  })
  return {
    model: provider.chatModel(choice.modelId),
    choice,
    keySource: found?.source ?? 'none',
    apiKey: found?.key ?? null,
    fetch: watched,
    calls,
  }
}
