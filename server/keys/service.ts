/**
 * Stored model keys: people save and remove them, and the agent reads them back (decrypted) only
 * to call a model. Nothing here ever returns a key to a caller; summaries show the last 4 only.
 */
import type { Caller } from '../auth/caller.ts'
import { badRequest, notFound } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { logger } from '../lib/logger.ts'
import { checkKeyWithProvider, type KeyVerdict } from './check-key.ts'
import { CHECKS_PER_WINDOW, mayCheckKey } from './check-pace.ts'
import { decryptSecret, encryptSecret } from './crypto.ts'
import {
  maskKey,
  ModelKeyInput,
  ModelKeyRemoval,
  providerName,
  type KeyCheck,
  type KeyScope,
  type ModelKeySummary,
  type ModelProvider,
  type SavedModelKey,
} from './schema.ts'
import { listBothScopes, ownerToChange } from './owners.ts'
import {
  deleteModelKeyRow,
  findModelKey,
  selectModelKeys,
  upsertModelKey,
  type KeyOwner,
  type StoredKeyRef,
  type StoredKeyRow,
} from './store.ts'

export type { KeyOwner } from './store.ts'

const ownerOf = (caller: Caller, scope: KeyScope) => ownerToChange(caller, scope, 'model key')

/** The refusal on record for a stored key (decision 0505), or null. */
const refusalOf = (row: Pick<StoredKeyRow, 'refusedAt' | 'refusedReason'>) =>
  row.refusedAt ? { at: row.refusedAt, reason: row.refusedReason ?? '' } : null

function summarise(
  scope: KeyScope,
  row: Pick<StoredKeyRow, 'provider' | 'last4' | 'updatedAt' | 'refusedAt' | 'refusedReason'>,
): ModelKeySummary {
  const refused = refusalOf(row)
  return {
    scope,
    provider: row.provider as ModelProvider,
    masked: maskKey(row.last4),
    updatedAt: row.updatedAt.toISOString(),
    refused: refused && { at: refused.at.toISOString(), reason: refused.reason },
  }
}

/** The caller's own keys and their organisation's, masked. Every member may see that an org key exists. */
export async function listModelKeys(caller: Caller): Promise<ModelKeySummary[]> {
  return listBothScopes(caller, (owner) => selectModelKeys(owner), summarise)
}

/**
 * Stores (or replaces) a key, encrypted, once the provider has been asked about it (decision 0514).
 * 403 for an org key unless the caller is an admin or owner; 400 naming `apiKey` when the provider
 * refuses the key (a 401), and then nothing is stored or changed. Any other outcome of the check
 * saves the key and says it could not be checked.
 */
export async function saveModelKey(caller: Caller, input: unknown): Promise<SavedModelKey> {
  const { scope, provider, apiKey } = parseInput(ModelKeyInput, input)
  const owner = ownerOf(caller, scope)
  const verdict = await askProvider(caller, provider, apiKey)
  if (verdict.outcome === 'refused') {
    logger.info(
      { userId: caller.userId, orgId: caller.orgId, scope, provider },
      'model key refused when saved',
    )
    throw badRequest(`apiKey: ${providerName(provider)} refused this key (${verdict.reason})`, 'apiKey')
  }
  const check: KeyCheck =
    verdict.outcome === 'accepted' ? { ok: true } : { ok: false, reason: verdict.reason }
  const last4 = apiKey.slice(-4)
  await upsertModelKey({ owner, provider, secret: encryptSecret(apiKey), last4 })
  logger.info({ userId: caller.userId, orgId: caller.orgId, scope, provider, check }, 'model key saved')
  const key = { scope, provider, masked: maskKey(last4), updatedAt: new Date().toISOString(), refused: null }
  return { key, check }
}

/** The provider's word on a key, unless the caller has had too many keys checked just now. */
function askProvider(caller: Caller, provider: ModelProvider, apiKey: string): Promise<KeyVerdict> {
  if (mayCheckKey(caller.userId)) return checkKeyWithProvider(provider, apiKey)
  const reason = `you had ${CHECKS_PER_WINDOW} keys checked in the last minute; a minute from now it is checked again`
  return Promise.resolve({ outcome: 'unchecked', reason })
}

/** Removes a stored key; 404 when there is none. */
export async function removeModelKey(caller: Caller, input: unknown): Promise<void> {
  const { scope, provider } = parseInput(ModelKeyRemoval, input)
  const removed = await deleteModelKeyRow(ownerOf(caller, scope), provider)
  if (!removed)
    throw notFound(`No ${scope === 'org' ? 'organisation' : 'personal'} ${provider} key is stored`)
  logger.info({ userId: caller.userId, orgId: caller.orgId, scope, provider }, 'model key removed')
}

/** A stored key as a model call uses it: the plain key, which save it is, and any refusal. */
export type StoredKey = {
  key: string
  ref: StoredKeyRef
  refused: { at: Date; reason: string } | null
}

/**
 * The key stored for `owner`, or null. A key that no longer decrypts (the app secret was rotated)
 * counts as absent, with a warning, so the deployment key or the no-key message takes over.
 */
export async function readStoredKey(owner: KeyOwner, provider: ModelProvider): Promise<StoredKey | null> {
  const row = await findModelKey(owner, provider)
  if (!row) return null
  try {
    return {
      key: decryptSecret(row.secret),
      ref: { id: row.id, secret: row.secret },
      refused: refusalOf(row),
    }
  } catch {
    logger.warn({ keyId: row.id, provider }, 'a stored model key cannot be decrypted (app secret changed?)')
    return null
  }
}
