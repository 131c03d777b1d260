import { listChatThreads } from '#server/agent/threads.ts'
import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].agent.threads._index'

// GET /_agent-native/agent/threads → { threads } (the caller's chats here, most recent first)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ threads: await listChatThreads(await requireCaller(request)) }))
