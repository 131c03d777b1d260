import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { removeMcpServer, updateMcpServer } from '#server/integrations/mcp-service.ts'
import type { Route } from './+types/[_agent-native].mcp-servers.$id'

// PATCH { name?, url?, headers? } → { server }; DELETE → 204
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method === 'PATCH')
      return json({ server: await updateMcpServer(caller, params.id, await readJsonBody(request)) })
    if (request.method === 'DELETE') {
      await removeMcpServer(caller, params.id)
      return new Response(null, { status: 204 })
    }
    return methodNotAllowed(request, ['PATCH', 'DELETE'])
  })
