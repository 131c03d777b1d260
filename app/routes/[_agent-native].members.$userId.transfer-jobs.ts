import { requireCaller } from '#server/auth/caller.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import { transferMemberJobs } from '#server/jobs/transfer.ts'
import type { Route } from './+types/[_agent-native].members.$userId.transfer-jobs'

// POST { toUserId } → { transferred: Job[] }: every shared job the member owns, in one step (admins and owners)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    return transferMemberJobs(caller, params.userId, await readJsonBody(request))
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
