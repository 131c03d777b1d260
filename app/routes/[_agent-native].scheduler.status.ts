import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { getSchedulerStatus } from '#server/scheduler/status.ts'
import type { Route } from './+types/[_agent-native].scheduler.status'

// GET /_agent-native/scheduler/status → live instances, last tick, due backlog, queued and running counts
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    await requireCaller(request)
    return getSchedulerStatus()
  })

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
