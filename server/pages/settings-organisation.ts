/** Server side of Settings → Organisation (app/routes/_app.settings.organisation.tsx). */
import { redirectDocument } from 'react-router'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import {
  createOrganization,
  deleteOrganization,
  findOrganization,
  renameOrganization,
} from '../auth/organizations.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'

export async function loadOrganisationPage(caller: Caller) {
  const { id, name, slug, managers } = await findOrganization(caller)
  return {
    organisation: { id, name, slug },
    me: { role: caller.role, canRename: isOrgAdmin(caller), canDelete: caller.role === 'owner' },
    // Whom a member asks for a new name: the owners and admins.
    managers: isOrgAdmin(caller) ? [] : managers,
  }
}

/**
 * The page's form actions, by intent; `create` is the switcher's New organisation (on every page).
 * Each acts on the caller's active organisation only: an id in the form is never read. Creating
 * or deleting changes what every page shows, so those load the jobs page afresh.
 */
export async function handleOrganisationAction(caller: Caller, request: Request) {
  const headers = request.headers
  const result = await runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'create':
        return createOrganization(headers, fields.name)
      case 'rename':
        return renameOrganization(caller, headers, fields.name)
      case 'delete':
        return deleteOrganization(caller, headers, fields.confirmName)
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
  if (result.ok && (result.intent === 'create' || result.intent === 'delete'))
    return redirectDocument('/jobs')
  return result
}
