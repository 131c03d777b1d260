import { requireCaller } from '#server/auth/caller.ts'
import { getSkill } from '#server/environments/skills/skills.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].skills.$id'

// GET /_agent-native/skills/:id → { skill, audit }
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => getSkill(await requireCaller(request), params.id))
