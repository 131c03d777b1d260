import { requireCaller } from '#server/auth/caller.ts'
import { getEnvironment } from '#server/environments/browse/browse.ts'
import { deleteEnvironmentAsked } from '#server/environments/operations/delete-environment.ts'
import { methodNotAllowed } from '#server/http/request.ts'
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

// DELETE /_agent-native/environments/<id> → 204: its folder, snapshot and record (decision 0461)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['GET', 'DELETE'])
    await deleteEnvironmentAsked(await requireCaller(request), params.id)
    return new Response(null, { status: 204 })
  })
