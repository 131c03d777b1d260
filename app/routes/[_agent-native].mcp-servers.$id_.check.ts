import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { testMcpServer } from '#server/integrations/mcp-service.ts'
import type { Route } from './+types/[_agent-native].mcp-servers.$id_.check'

// POST → { server, status: { state: ok, tools } | { state: error, message } } (connects and lists tools afresh)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return testMcpServer(await requireCaller(request), params.id)
  })
