/**
 * Settings → Secrets: names (never values) of the person's secrets and their organisation's, and
 * the forms that add, replace and delete them through the keys service (org ones: admins only).
 */
import { z } from 'zod'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { SecretName } from '../keys/secrets-schema.ts'
import { listSecrets, removeSecret, saveSecret } from '../keys/secrets-service.ts'
import { badRequest } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { runForm } from './forms.ts'

export async function loadSecretsPage(caller: Caller) {
  return { secrets: await listSecrets(caller), isAdmin: isOrgAdmin(caller) }
}

/** Form intents: save (add or replace; the value is write-only) and delete. */
export async function handleSecretsAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', scope, name, value }) => {
    switch (intent) {
      case 'save': {
        // Checked here first so a bad name is reported next to the Name field.
        const checked = parseInput(z.object({ name: SecretName }), { name: (name ?? '').trim() })
        return { secret: await saveSecret(caller, scope, checked.name, { value }) }
      }
      case 'delete':
        await removeSecret(caller, scope, name)
        return { secret: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
