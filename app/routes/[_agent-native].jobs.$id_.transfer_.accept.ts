import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import { acceptTransferOffer } from '#server/jobs/transfer-offers.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.transfer_.accept'

// POST { version } → { job } now yours: only the member the job was offered to, for the version offered
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    return { job: await acceptTransferOffer(caller, params.id, await readJsonBody(request)) }
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
