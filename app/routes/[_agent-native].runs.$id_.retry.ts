import { startRetry } from '#server/agent/run-now.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].runs.$id_.retry'

// POST /_agent-native/runs/:id/retry → 202 { run } (a new run of its job); 409 unless it failed,
// 409 model_key_refused or 429 quota_exceeded as Run now
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    const run = await startRetry(caller, params.id)
    return json({ run }, { status: 202 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
