import { requireCaller } from '#server/auth/caller.ts'
import { listEnvironmentFiles } from '#server/environments/browse/browse.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id_.files'

// GET /_agent-native/environments/<id or name>/files?path=&scope= → { path, entries: [{ path, type, size }] }
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () =>
    listEnvironmentFiles(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  )
