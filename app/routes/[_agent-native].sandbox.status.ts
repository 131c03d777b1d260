import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { sandboxIsolation } from '#server/sandbox/index.ts'
import type { Route } from './+types/[_agent-native].sandbox.status'

// GET /_agent-native/sandbox/status → { adapter, level: strong | reduced | unknown, summary }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    await requireCaller(request)
    return sandboxIsolation()
  })

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
