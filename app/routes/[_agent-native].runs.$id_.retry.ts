import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { retryRun } from '#server/runs/control.ts'
import type { Route } from './+types/[_agent-native].runs.$id_.retry'

// POST /_agent-native/runs/:id/retry → 202 { run } (a new run of its job); 409 unless it failed
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const run = await retryRun(await requireCaller(request), params.id)
    return json({ run }, { status: 202 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
