/**
 * The limit on stored secrets (decision 0456): the settings page and every run's environment read
 * all of an owner's secrets, so one member must not be able to store without end. Each person's
 * personal secrets and the organisation's shared ones are counted apart.
 */
import type { Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { quotaExceeded } from '../lib/errors.ts'
import type { KeyOwner } from './owners.ts'
import { countSecrets, selectSecrets } from './secrets-store.ts'

/** Secrets one owner (a person, or an organisation) may store; a command's env needs a handful. */
export const MAX_SECRETS_PER_SCOPE = 100

/**
 * Checks that the secret `name` fits: replacing one that exists always does, a new one must find
 * room. Call it in the saving transaction: saves for one owner take turns until it ends, since two
 * at once would otherwise both count the same room and both take it.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkSecretQuota(owner: KeyOwner, name: string, tx: Db): Promise<void> {
  await lockKey(tx, 'userId' in owner ? `secrets:user:${owner.userId}` : `secrets:org:${owner.orgId}`)
  if ((await selectSecrets(owner, [name], tx)).length > 0) return
  if ((await countSecrets(owner, tx)) < MAX_SECRETS_PER_SCOPE) return
  const whose = 'userId' in owner ? 'You already have' : 'This organisation already has'
  throw quotaExceeded(
    `${whose} ${MAX_SECRETS_PER_SCOPE} ${'userId' in owner ? 'personal' : 'shared'} secrets, ` +
      'the most one scope may store: delete one first, or replace one by saving it under its name',
  )
}
