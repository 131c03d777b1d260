import { requireCaller } from '#server/auth/caller.ts'
import { getBootstrap } from '#server/environments/service.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id.bootstrap'

// GET /_agent-native/environments/:id/bootstrap → { bootstrap } (status, phase, steps with elapsed
// times and output tails; null before the first build)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({ bootstrap: await getBootstrap(await requireCaller(request), params.id) }))
