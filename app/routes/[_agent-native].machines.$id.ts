import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { disconnectMachine } from '#server/machines/service.ts'
import type { Route } from './+types/[_agent-native].machines.$id'

// DELETE → 204: ends the machine's connection (the client exits) and takes it off the list; 404 if not yours
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['DELETE'])
    await disconnectMachine((await requireCaller(request)).userId, params.id)
    return new Response(null, { status: 204 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['DELETE'])
