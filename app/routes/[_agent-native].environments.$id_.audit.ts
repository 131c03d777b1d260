import { requireCaller } from '#server/auth/caller.ts'
import { getAuditPage } from '#server/environments/browse/browse.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id_.audit'

// GET /_agent-native/environments/:id/audit?limit=200&before=<entry id>
//   → { entries, total, nextCursor } newest first; pass nextCursor as `before` for older entries
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () =>
    getAuditPage(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  )
