/**
 * Settings → Delivery: the organisation's webhook and Slack endpoints (admins add and remove
 * them; a webhook's signing secret is in the answer once) and whether email is on.
 */
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { createEndpoint, deleteEndpoint, listEndpoints } from '../integrations/endpoints.ts'
import { emailEnabled } from '../integrations/email.ts'
import { runForm } from './forms.ts'

export async function loadDeliveryPage(caller: Caller) {
  return { endpoints: await listEndpoints(caller), canEdit: isOrgAdmin(caller), emailEnabled: emailEnabled() }
}

/** Form intents: create-endpoint (answers a webhook's signing secret once) and delete-endpoint. */
export async function handleDeliveryAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'create-endpoint': {
        const created = await createEndpoint(caller, {
          kind: fields.kind,
          name: fields.name,
          url: fields.url,
        })
        return { id: created.id, name: created.name, signingSecret: created.signingSecret ?? null }
      }
      case 'delete-endpoint':
        await deleteEndpoint(caller, fields.id ?? '')
        return { id: null, name: null, signingSecret: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
