import { stopChat } from '#server/agent/chat-stop.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].agent.threads.$id_.stop'

// POST /_agent-native/agent/threads/:id/stop → { threadId, turnStopped, machines }: the turn and its commands stop
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return stopChat(await requireCaller(request), params.id)
  })

export const loader = ({ request }: Route.LoaderArgs) => methodNotAllowed(request, ['POST'])
