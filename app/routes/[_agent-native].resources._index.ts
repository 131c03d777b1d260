import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listResources } from '#server/resources/service.ts'
import type { Route } from './+types/[_agent-native].resources._index'

// GET /_agent-native/resources?prefix= → { personal: Entry[], shared: Entry[] }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    return listResources(caller, new URL(request.url).searchParams.get('prefix') ?? undefined)
  })

export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    await requireCaller(request)
    return methodNotAllowed(request, ['GET'])
  })
