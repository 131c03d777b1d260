import { getOrgSettings, updateOrgSettings } from '#server/accounts/org-settings.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].org-settings'

// GET /_agent-native/org-settings → { settings, updatedAt, updatedBy, canEdit } (every member)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => getOrgSettings(await requireCaller(request)))

// PATCH { runCode?, cli? } → the settings after the change (owners and admins; others 403)
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'PATCH') return methodNotAllowed(request, ['GET', 'PATCH'])
    const caller = await requireCaller(request)
    return updateOrgSettings(caller, await readJsonBody(request))
  })
