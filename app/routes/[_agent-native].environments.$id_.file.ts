import { requireCaller } from '#server/auth/caller.ts'
import { readEnvironmentFile } from '#server/environments/browse/browse.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id_.file'

// GET /_agent-native/environments/<id or name>/file?path=&offset=&limit=&scope=
//   → { path, content, startLine, endLine, totalLines, nextOffset? } (read-only; secrets shown as ••••)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () =>
    readEnvironmentFile(
      await requireCaller(request),
      params.id,
      Object.fromEntries(new URL(request.url).searchParams),
    ),
  )
