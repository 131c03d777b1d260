import { requireCaller } from '#server/auth/caller.ts'
import { getEnvironment } from '#server/environments/browse/browse.ts'
import {
  deleteEnvironmentAsked,
  deleteOptionsOf,
} from '#server/environments/operations/delete-environment.ts'
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

// DELETE /_agent-native/environments/<id>?leaveFolder= → 204: its folder, snapshot and record
// (decision 0461), forwarded to the instance holding them; 200 { deleted, folderLeftOn } when that
// instance is gone and leaveFolder=true removed the record only (decision 0466)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['GET', 'DELETE'])
    const options = deleteOptionsOf(new URL(request.url).searchParams)
    const done = await deleteEnvironmentAsked(await requireCaller(request), params.id, options)
    return done.folderLeftOn ? done : new Response(null, { status: 204 })
  })
