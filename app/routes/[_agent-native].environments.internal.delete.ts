import { serveForwardedDelete } from '#server/environments/operations/remote-serve.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].environments.internal.delete'

// POST (instances only, bearer from the app secret) → { result: { deleted } }: a delete forwarded to the holder
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return serveForwardedDelete(request)
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
