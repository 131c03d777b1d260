import { requireCaller } from '#server/auth/caller.ts'
import { listSkills } from '#server/environments/skills/skills.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].skills._index'

// GET /_agent-native/skills → { skills } (pending first)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ skills: await listSkills(await requireCaller(request)) }))
