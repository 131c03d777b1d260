import { requireCaller } from '#server/auth/caller.ts'
import { listSecrets } from '#server/keys/secrets-service.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].secrets._index'

// GET /_agent-native/secrets → { secrets: [{ scope, name, updatedAt }] } (names only, never values)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ secrets: await listSecrets(await requireCaller(request)) }))
