import { deleteChat } from '#server/agent/chat-stop.ts'
import { getChatThread } from '#server/agent/threads.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].agent.threads.$id'

// GET /_agent-native/agent/threads/:id?before=<messageId> → { thread, messages, hasMore, nextBefore }
// (the latest page of UI messages, or the page before one, to reopen the chat)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () =>
    getChatThread(await requireCaller(request), params.id, {
      before: new URL(request.url).searchParams.get('before'),
    }),
  )

// DELETE → 204: the chat and its messages are gone, a turn running in it stopped first (decision 0487)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'DELETE') return methodNotAllowed(request, ['GET', 'DELETE'])
    await deleteChat(await requireCaller(request), params.id)
    return new Response(null, { status: 204 })
  })
