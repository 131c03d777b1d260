import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { serveForwardedCall } from '#server/machines/forward.ts'
import type { Route } from './+types/[_agent-native].machines.internal.call'

// POST (instances only, bearer from the app secret) → { result } of a call on a machine held here
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return serveForwardedCall(request)
  })
