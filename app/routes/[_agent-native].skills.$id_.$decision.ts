import { z } from 'zod'
import { requireCaller } from '#server/auth/caller.ts'
import { decideSkill } from '#server/environments/skills/skills.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { notFound } from '#server/lib/errors.ts'
import { parseInput } from '#server/lib/validate.ts'
import type { Route } from './+types/[_agent-native].skills.$id_.$decision'

const Body = z.strictObject({
  updatedAt: z.string().max(64).optional().describe('The version the person reviewed (409 if it changed)'),
})

// POST /_agent-native/skills/:id/approve|reject {updatedAt?} → 200 { skill } (admins; audited)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    if (params.decision !== 'approve' && params.decision !== 'reject') throw notFound('No such action')
    const caller = await requireCaller(request)
    const body = parseInput(Body, await readJsonBody(request, 4096))
    return json({ skill: await decideSkill(caller, params.id, params.decision, 'person', body.updatedAt) })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
