import { requireCaller } from '#server/auth/caller.ts'
import { getEnvironment } from '#server/environments/browse/browse.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id'

// GET /_agent-native/environments/<id or name>?scope= → { environment } (with its definition)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({
    environment: await getEnvironment(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  }))
