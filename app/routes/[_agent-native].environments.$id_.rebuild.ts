import { requireCaller } from '#server/auth/caller.ts'
import { rebuildHere } from '#server/environments/bootstrap/rebuild.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].environments.$id_.rebuild'

// POST /_agent-native/environments/:id/rebuild → { id, name, instanceId }: moved here, starting empty
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return rebuildHere(await requireCaller(request), params.id)
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
