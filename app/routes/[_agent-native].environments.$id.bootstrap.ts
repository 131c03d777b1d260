import { requireCaller } from '#server/auth/caller.ts'
import { getBootstrapOf } from '#server/environments/browse/browse.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id.bootstrap'

// GET /_agent-native/environments/<id or name>/bootstrap?scope= → { bootstrap } (status, phase,
// steps with their times and output tails, a running step's tail as it grows; null before the
// first build). The environment page polls it while a build runs.
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({
    bootstrap: await getBootstrapOf(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  }))
