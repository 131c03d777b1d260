import { requireCaller } from '#server/auth/caller.ts'
import { revokeCalendarToken } from '#server/calendar/tokens.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].calendar.tokens.$id'

// DELETE → 204; the feed answers 401 to that token from now on
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['DELETE'])
    await revokeCalendarToken(await requireCaller(request), params.id)
    return new Response(null, { status: 204 })
  })
