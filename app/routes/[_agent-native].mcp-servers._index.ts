import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { createMcpServer, listMcpServers } from '#server/integrations/mcp-service.ts'
import type { Route } from './+types/[_agent-native].mcp-servers._index'

// GET → { servers: [{ id, name, url, scope, headers (editors only), canEdit, status, … }] }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ servers: await listMcpServers(await requireCaller(request)) }))

// POST { name, url, headers?, scope? } → 201 { server }
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    const caller = await requireCaller(request)
    return json({ server: await createMcpServer(caller, await readJsonBody(request)) }, { status: 201 })
  })
