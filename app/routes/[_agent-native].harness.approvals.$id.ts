import { requireCaller } from '#server/auth/caller.ts'
import { answerApproval } from '#server/harness/approvals.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { badRequest } from '#server/lib/errors.ts'
import type { Route } from './+types/[_agent-native].harness.approvals.$id'

// POST /_agent-native/harness/approvals/:id { approved: boolean } → 200 { approved }: the person's
// answer to a tool call a harness holds in chat; 404 when it is not theirs or no longer waits.
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    const caller = await requireCaller(request)
    const { approved } = await readJsonBody(request)
    if (typeof approved !== 'boolean') throw badRequest('approved: must be true or false', 'approved')
    answerApproval(caller.userId, params.id, approved)
    return json({ approved })
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
