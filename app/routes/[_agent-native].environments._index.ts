import { requireCaller } from '#server/auth/caller.ts'
import { listEnvironments } from '#server/environments/browse/browse.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments._index'

// GET /_agent-native/environments → { environments: [{ id, name, scope, status, sizeBytes, … }] }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ environments: await listEnvironments(await requireCaller(request)) }))
