import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { deleteEndpoint } from '#server/integrations/endpoints.ts'
import type { Route } from './+types/[_agent-native].webhooks.$id'

// DELETE /_agent-native/webhooks/:id → 204 (admins only)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['DELETE'])
    await deleteEndpoint(await requireCaller(request), params.id)
    return new Response(null, { status: 204 })
  })
