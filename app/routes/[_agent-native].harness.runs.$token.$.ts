import { handleHarnessRequest } from '#server/harness/endpoint.ts'
import type { Route } from './+types/[_agent-native].harness.runs.$token.$'

// /_agent-native/harness/runs/:token/… → the run's endpoint (model API, hook, MCP relay) for a
// harness that reaches it over HTTP (a connected machine). The token is the only credential: it
// names one live run on a connected machine and dies with it; a run in this server's sandbox is
// reached through its own socket only (server/harness/endpoint.ts).
const answer = ({ request, params }: Route.ActionArgs | Route.LoaderArgs) =>
  handleHarnessRequest(params.token, `/${params['*'] ?? ''}${new URL(request.url).search}`, request, 'http')

export const action = answer
export const loader = answer
