import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import { transferJob } from '#server/jobs/transfer.ts'
import { getTransferOffer } from '#server/jobs/transfer-offers.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.transfer'

// POST { toUserId } → { outcome: 'taken_over', job } for yourself, { outcome: 'offered', job, offer }
// for anyone else (admins and owners; shared jobs only). GET → { offer } (null when none).
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    const caller = await requireCaller(request)
    return transferJob(caller, params.id, await readJsonBody(request))
  })

export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({ offer: await getTransferOffer(await requireCaller(request), params.id) }))
