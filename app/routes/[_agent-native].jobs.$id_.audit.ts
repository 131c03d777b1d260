import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listJobAudit } from '#server/jobs/service.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.audit'

// GET /_agent-native/jobs/:id/audit → { entries }, newest first
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({ entries: await listJobAudit(await requireCaller(request), params.id) }))

export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    await requireCaller(request)
    return methodNotAllowed(request, ['GET'])
  })
