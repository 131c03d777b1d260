import { requireCaller } from '#server/auth/caller.ts'
import { deleteSkill } from '#server/environments/skills/delete-skill.ts'
import { getSkill } from '#server/environments/skills/skills.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].skills.$id'

// GET /_agent-native/skills/:id?limit=&cursor= → { skill, audit, total, nextCursor }, audit newest first
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    return getSkill(caller, params.id, Object.fromEntries(new URL(request.url).searchParams))
  })

// DELETE → 204 (an admin, or the author of a skill not approved; decision 0457)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['GET', 'DELETE'])
    await deleteSkill(await requireCaller(request), params.id)
    return new Response(null, { status: 204 })
  })
