import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { createMachineToken } from '#server/machines/tokens.ts'
import type { Route } from './+types/[_agent-native].machines.tokens._index'

// POST { name } → 201 { token (shown this once), summary }
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    return json(await createMachineToken(caller.userId, await readJsonBody(request)), { status: 201 })
  })
