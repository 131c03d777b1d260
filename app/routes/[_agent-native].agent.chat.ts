import { streamChat } from '#server/agent/chat.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].agent.chat'

export const loader = ({ request }: Route.LoaderArgs) => api(async () => methodNotAllowed(request, ['POST']))

// POST /_agent-native/agent/chat { threadId?, message } → AI SDK UI message stream (SSE)
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    // A message answering a confirmation carries tools' outputs back, whose keys are not ours to bound.
    return streamChat(caller, await readJsonBody(request, 512 * 1024, { longKeys: false }))
  })
