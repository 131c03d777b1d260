import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { revokeAccessToken } from '#server/tokens/access-tokens.ts'
import type { Route } from './+types/[_agent-native].access-tokens.$id'

// DELETE → 204; the MCP endpoint refuses the token from its next request on
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['DELETE'])
    await revokeAccessToken(await requireCaller(request), params.id)
    return new Response(null, { status: 204 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['DELETE'])
