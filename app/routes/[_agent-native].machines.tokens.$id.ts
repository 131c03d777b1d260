import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { revokeMachineToken } from '#server/machines/tokens.ts'
import type { Route } from './+types/[_agent-native].machines.tokens.$id'

// DELETE → 204; the token is refused at the machine's next connect
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['DELETE'])
    await revokeMachineToken((await requireCaller(request)).userId, params.id)
    return new Response(null, { status: 204 })
  })
