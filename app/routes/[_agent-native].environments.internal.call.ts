import { serveForwardedOperation } from '#server/environments/operations/remote-serve.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].environments.internal.call'

// POST (instances only, bearer from the app secret) → { result } of an environment operation held here
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return serveForwardedOperation(request)
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
