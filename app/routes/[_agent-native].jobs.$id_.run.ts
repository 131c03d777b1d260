import { startRunNow } from '#server/agent/run-now.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { queuedRunNotice } from '#server/scheduler/status.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.run'

// POST /_agent-native/jobs/:id/run → 202 { run, notice? } (queued, or skipped by the overlap
// policy; `notice` says why a queued run will not start yet)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    const run = await startRunNow(caller, params.id)
    const notice = run.status === 'queued' ? await queuedRunNotice(caller.orgId) : null
    return json(notice ? { run, notice } : { run }, { status: 202 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
