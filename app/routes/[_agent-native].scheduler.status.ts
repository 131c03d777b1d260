import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { getSchedulerStatus } from '#server/scheduler/status.ts'
import type { Route } from './+types/[_agent-native].scheduler.status'

// GET /_agent-native/scheduler/status → live instances (opaque ids, last seen); the caller's org's due backlog, queued and running counts
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    return getSchedulerStatus(caller.orgId)
  })

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
