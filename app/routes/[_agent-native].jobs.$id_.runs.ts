import { requireCaller } from '#server/auth/caller.ts'
import { conditionalJson } from '#server/http/conditional.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listRunPage } from '#server/runs/list.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.runs'

// GET /_agent-native/jobs/:id/runs?limit=&cursor= → { runs, total, nextCursor }, newest first
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const query = Object.fromEntries(new URL(request.url).searchParams)
    return conditionalJson(request, await listRunPage(caller, params.id, query))
  })

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
