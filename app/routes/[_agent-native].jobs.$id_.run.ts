import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { runJobNow } from '#server/runs/service.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.run'

// POST /_agent-native/jobs/:id/run → 202 { run } (queued, or skipped by the overlap policy)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const run = await runJobNow(await requireCaller(request), params.id)
    return json({ run }, { status: 202 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
