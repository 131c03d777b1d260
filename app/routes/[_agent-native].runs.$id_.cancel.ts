import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { cancelRunAndCommands } from '#server/environments/operations/cancel.ts'
import type { Route } from './+types/[_agent-native].runs.$id_.cancel'

// POST /_agent-native/runs/:id/cancel → 200 { run } (now cancelled); 409 unless queued or running
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return json({ run: await cancelRunAndCommands(await requireCaller(request), params.id) })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
