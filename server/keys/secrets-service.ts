/**
 * Stored secrets: people save and remove them (admins for the org), never read them back. Only the
 * environments' executor gets values, decrypted, to inject into a command's env at run time.
 */
import type { Caller } from '../access/caller.ts'
import { getDb } from '../db/client.ts'
import { notFound } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { decryptSecret, encryptSecret } from './crypto.ts'
import { z } from 'zod'
import { SecretName, SecretScope, SecretValue, type SecretSummary } from './secrets-schema.ts'
import { deleteSecretRow, selectSecrets, upsertSecret } from './secrets-store.ts'
import { checkSecretQuota } from './secrets-quota.ts'
import { listBothScopes, ownerToChange, type KeyOwner } from './owners.ts'

function ownerOf(caller: Caller, scope: unknown): { owner: KeyOwner; scope: SecretScope } {
  const parsed = parseInput(SecretScope, scope)
  return { owner: ownerToChange(caller, parsed, 'secrets'), scope: parsed }
}

const summary = (scope: SecretScope, row: { name: string; updatedAt: Date }): SecretSummary => ({
  scope,
  name: row.name,
  updatedAt: row.updatedAt.toISOString(),
})

/** A secret's name from the path, refused naming the field `name`. */
const parseName = (name: unknown) => parseInput(z.strictObject({ name: SecretName }), { name }).name

/** Names (never values) of the caller's secrets and their organisation's. */
export async function listSecrets(caller: Caller): Promise<SecretSummary[]> {
  return listBothScopes(caller, (owner) => selectSecrets(owner), summary)
}

/** One secret's summary; 404 when none is stored. Every member may see that an org secret exists. */
export async function getSecret(caller: Caller, scope: unknown, name: unknown): Promise<SecretSummary> {
  const parsedScope = parseInput(SecretScope, scope)
  const parsedName = parseName(name)
  const owner: KeyOwner = parsedScope === 'personal' ? { userId: caller.userId } : { orgId: caller.orgId }
  const [row] = await selectSecrets(owner, [parsedName])
  if (!row) throw notFound(`No ${parsedScope} secret named ${parsedName}`)
  return summary(parsedScope, row)
}

/**
 * Stores a secret, or replaces its value. A new one must fit in its scope's limit
 * (403 `quota_exceeded`, MAX_SECRETS_PER_SCOPE); replacing one always does.
 */
export async function saveSecret(caller: Caller, scope: unknown, name: unknown, body: unknown) {
  const { owner, scope: parsedScope } = ownerOf(caller, scope)
  const parsedName = parseName(name)
  const { value } = parseInput(SecretValue, body)
  await getDb().transaction(async (tx) => {
    await checkSecretQuota(owner, parsedName, tx)
    await upsertSecret(owner, parsedName, encryptSecret(value), tx)
  })
  logger.info(
    { userId: caller.userId, orgId: caller.orgId, scope: parsedScope, name: parsedName },
    'secret saved',
  )
  return { scope: parsedScope, name: parsedName, updatedAt: new Date().toISOString() }
}

export async function removeSecret(caller: Caller, scope: unknown, name: unknown): Promise<void> {
  const { owner, scope: parsedScope } = ownerOf(caller, scope)
  const parsedName = parseName(name)
  if (!(await deleteSecretRow(owner, parsedName)))
    throw notFound(`No ${parsedScope} secret named ${parsedName}`)
  logger.info(
    { userId: caller.userId, orgId: caller.orgId, scope: parsedScope, name: parsedName },
    'secret removed',
  )
}

/**
 * Values for `names`, looked up in each owner in turn (the first that has it wins). A name no owner
 * has is reported missing; a value that no longer decrypts (the app secret changed) likewise.
 */
export async function resolveSecretValues(
  owners: KeyOwner[],
  names: string[],
): Promise<{ values: Record<string, string>; missing: string[] }> {
  const values: Record<string, string> = {}
  for (const owner of owners) {
    const wanted = names.filter((n) => !(n in values))
    if (wanted.length === 0) break
    for (const row of await selectSecrets(owner, wanted)) {
      try {
        values[row.name] = decryptSecret(row.secret)
      } catch {
        logger.warn({ secretId: row.id }, 'a stored secret cannot be decrypted (app secret changed?)')
      }
    }
  }
  return { values, missing: names.filter((n) => !(n in values)) }
}
