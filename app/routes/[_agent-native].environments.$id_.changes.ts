import { requireCaller } from '#server/auth/caller.ts'
import { recentFileChanges } from '#server/environments/browse/file-changes.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id_.changes'

// GET /_agent-native/environments/:id/changes?limit=30
//   → { changes: [{ id, type, path, timestamp, actor, via, runId }] } newest first: the files
//   commands created, changed or deleted there (chat, job runs and the command box)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () =>
    recentFileChanges(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  )
