import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listJobAuditPage } from '#server/jobs/audit-page.ts'
import { conditionalJson } from '#server/http/conditional.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.audit'

// GET /_agent-native/jobs/:id/audit?limit=&cursor= → { entries, total, nextCursor }, newest first
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const query = Object.fromEntries(new URL(request.url).searchParams)
    return conditionalJson(request, await listJobAuditPage(caller, params.id, query))
  })

export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    await requireCaller(request)
    return methodNotAllowed(request, ['GET'])
  })
