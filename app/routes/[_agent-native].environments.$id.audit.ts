import { requireCaller } from '#server/auth/caller.ts'
import { getAudit } from '#server/environments/service.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id.audit'

// GET /_agent-native/environments/:id/audit?limit=200 → { entries } newest first
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const limit = Number(new URL(request.url).searchParams.get('limit') ?? 200) || 200
    return { entries: await getAudit(await requireCaller(request), params.id, limit) }
  })
