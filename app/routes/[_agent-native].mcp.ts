import { readTextBody } from '#server/http/request.ts'
import { BODY_LIMITS } from '#server/lib/limits.ts'
import { handleMcpRequest } from '#server/mcp-server/endpoint.ts'
import type { Route } from './+types/[_agent-native].mcp'

// POST /_agent-native/mcp: MCP over streamable HTTP, Authorization: Bearer <personal access token>
export const action = ({ request }: Route.ActionArgs) =>
  handleMcpRequest(request, () => readTextBody(request, BODY_LIMITS.json))

// GET: 405 (stateless: no stream for server-initiated messages), after the token check
export const loader = ({ request }: Route.LoaderArgs) =>
  handleMcpRequest(request, () => readTextBody(request, BODY_LIMITS.json))
