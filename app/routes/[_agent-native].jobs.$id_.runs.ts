import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listRunsOfJob } from '#server/runs/service.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.runs'

// GET /_agent-native/jobs/:id/runs?limit=&before= → { runs }, newest first
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const query = Object.fromEntries(new URL(request.url).searchParams)
    return { runs: await listRunsOfJob(caller, params.id, query) }
  })

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
