import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { getRunWithTranscript } from '#server/runs/service.ts'
import type { Route } from './+types/[_agent-native].runs.$id'

// GET /_agent-native/runs/:id → { run, transcript }
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => getRunWithTranscript(await requireCaller(request), params.id))

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
