import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import { transferJob } from '#server/jobs/transfer.ts'
import type { Route } from './+types/[_agent-native].jobs.$id_.transfer'

// POST { toUserId } → { job } now owned by that member (admins and owners; shared jobs only)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    return { job: await transferJob(caller, params.id, await readJsonBody(request)) }
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
