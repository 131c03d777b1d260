import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { listMachines } from '#server/machines/service.ts'
import type { Route } from './+types/[_agent-native].machines._index'

// GET /_agent-native/machines → { machines, tokens } of the signed-in person
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => listMachines((await requireCaller(request)).userId))
