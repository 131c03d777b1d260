import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listResourcePage } from '#server/resources/page.ts'
import type { Route } from './+types/[_agent-native].resources._index'

// GET /_agent-native/resources?prefix=&scope=&limit=&cursor=
//   → { personal: Entry[], shared: Entry[], total: { personal, shared }, nextCursor }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    return listResourcePage(caller, Object.fromEntries(new URL(request.url).searchParams))
  })

export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    await requireCaller(request)
    return methodNotAllowed(request, ['GET'])
  })
