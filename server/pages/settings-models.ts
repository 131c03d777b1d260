/**
 * Settings → Models: which model the agent uses, whose key each kind of call would spend right
 * now, and the stored keys (masked). Saving and removing keys goes through the keys service.
 */
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { anthropicBaseUrl, env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import { listModelKeys, removeModelKey, saveModelKey } from '../keys/service.ts'
import { deploymentKeyVariable, providerName, type ModelProvider } from '../keys/schema.ts'
import { deploymentKeyRefusal } from '../agent/key-refusal.ts'
import { readModelChoice, resolveModelKey, type KeySource, type ModelPurpose } from '../agent/model.ts'
import { findPrice, type Price } from '../agent/pricing.ts'
import { retiredModelWarning } from '../agent/retired-models.ts'

/** Whose key `purpose` would spend, and the deployment's key when that is it. */
async function sourceFor(
  purpose: ModelPurpose,
  provider: ModelProvider,
): Promise<{ source: KeySource | null; deploymentKey: string | null }> {
  const found = await resolveModelKey(purpose, provider)
  if (found) return { source: found.source, deploymentKey: found.stored ? null : found.key }
  // An OpenAI-compatible server may need no key at all.
  const none = provider === 'openai-compatible' && env().OPENAI_COMPATIBLE_BASE_URL
  return { source: none ? 'none' : null, deploymentKey: null }
}

/**
 * A price as the Models page states it: cache reads where they are not a tenth of the input price,
 * the rates of a large call, and a family's stand-in price.
 */
export function describePrice(price: Price): string {
  const cacheRead =
    price.cacheRead === undefined
      ? ''
      : `; $${Number((price.input * price.cacheRead).toFixed(4))} for cache reads`
  const long = price.long
    ? `; $${price.long.input} / $${price.long.output} for a call over ${price.long.over.toLocaleString('en')} input tokens`
    : ''
  const ceiling = price.familyCeiling
    ? ' (not in the price list yet: its family’s highest price, so costs are over-counted)'
    : ''
  return `$${price.input} / $${price.output} per million input / output tokens${cacheRead}${long}${ceiling}`
}

/** Where the model is served from, without credentials or paths (just the origin). */
function serverOrigin(provider: string): string {
  const config = env()
  const url = provider === 'anthropic' ? anthropicBaseUrl(config) : config.OPENAI_COMPATIBLE_BASE_URL
  if (!url) return 'not configured (set OPENAI_COMPATIBLE_BASE_URL)'
  return new URL(url).origin
}

export async function loadModelsPage(caller: Caller) {
  const choice = readModelChoice()
  const price = findPrice(choice)
  const [keys, chat, creatorRuns, sharedRuns] = await Promise.all([
    listModelKeys(caller),
    sourceFor({ kind: 'chat', userId: caller.userId, orgId: caller.orgId }, choice.provider),
    sourceFor({ kind: 'run', runAs: 'creator', userId: caller.userId, orgId: caller.orgId }, choice.provider),
    sourceFor({ kind: 'run', runAs: 'shared', userId: caller.userId, orgId: caller.orgId }, choice.provider),
  ])
  // The deployment's key is one key, whichever purpose spends it.
  const deploymentKey = [chat, creatorRuns, sharedRuns].find((s) => s.deploymentKey)?.deploymentKey
  const deploymentRefused = deploymentKey ? deploymentKeyRefusal(choice.provider, deploymentKey) : null
  return {
    model: {
      provider: choice.provider,
      providerName: providerName(choice.provider),
      modelId: choice.modelId,
      server: serverOrigin(choice.provider),
      price: price ? describePrice(price) : null,
      retired: retiredModelWarning(choice),
    },
    sources: { chat: chat.source, creatorRuns: creatorRuns.source, sharedRuns: sharedRuns.source },
    /** When the provider last refused the deployment's key on this instance, if any source is it. */
    deploymentRefused: deploymentRefused && {
      at: deploymentRefused.at.toISOString(),
      reason: deploymentRefused.reason,
      variable: deploymentKeyVariable(choice.provider),
    },
    keys,
    canManageOrg: isOrgAdmin(caller),
    orgName: caller.orgName,
  }
}

/** The models page's form actions: save-key and remove-key, for scope personal or org. */
export async function handleModelsAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'save-key':
        return saveModelKey(caller, fields)
      case 'remove-key':
        return removeModelKey(caller, fields)
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
