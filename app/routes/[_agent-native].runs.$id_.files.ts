import { requireCaller } from '#server/auth/caller.ts'
import { changedFilesOfRun } from '#server/environments/operations/activity.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].runs.$id_.files'

// GET /_agent-native/runs/:id/files?limit=&cursor= → { files: [{ environment, path, type, timestamp }], nextCursor }
// changed by the run, in order of their last change, at most `limit` (1–200, default 200) a page
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () =>
    changedFilesOfRun(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  )
