import { requireCaller } from '#server/auth/caller.ts'
import { changedFilesOfRun } from '#server/environments/operations/activity.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].runs.$id_.files'

// GET /_agent-native/runs/:id/files → { files: [{ environment, path, type, timestamp }] } changed by the run
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({ files: await changedFilesOfRun(await requireCaller(request), params.id) }))
