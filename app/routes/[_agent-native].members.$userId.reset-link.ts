import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { api, json } from '#server/http/respond.ts'
import { createResetLinkEndingMachines } from '#server/machines/service.ts'
import type { Route } from './+types/[_agent-native].members.$userId.reset-link'

// POST → 201 { link, expiresAt, userId, machineTokensRevoked }: a one-time password reset link for a
// member (admins and owners), audited; it revokes their machine tokens, and their machines go offline now
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    return json(await createResetLinkEndingMachines(caller, params.userId), { status: 201 })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
