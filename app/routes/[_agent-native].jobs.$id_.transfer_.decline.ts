import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import { declineTransferOffer } from '#server/jobs/transfer-offers.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.transfer_.decline'

// POST → { job } as it was, its offer gone: the member it was offered to declines, or an admin withdraws it
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    return { job: await declineTransferOffer(caller, params.id) }
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
