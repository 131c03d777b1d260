import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { revokeToken } from '#server/machines/service.ts'
import type { Route } from './+types/[_agent-native].machines.tokens.$id'

// DELETE → 204; the connections it made end at once, and it is refused at any next connect
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['DELETE'])
    await revokeToken((await requireCaller(request)).userId, params.id)
    return new Response(null, { status: 204 })
  })
