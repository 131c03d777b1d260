import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { createEndpoint, listEndpoints } from '#server/integrations/endpoints.ts'
import { emailStatus } from '#server/integrations/views.ts'
import type { Route } from './+types/[_agent-native].webhooks._index'

// GET /_agent-native/webhooks → { endpoints: [{ id, kind, name, host, createdAt }], email: { enabled } }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ endpoints: await listEndpoints(await requireCaller(request)), email: emailStatus() }))

// POST { kind: webhook|slack, name, url } → 201 { endpoint } (a webhook's signingSecret, this once); admins only
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    const caller = await requireCaller(request)
    return json({ endpoint: await createEndpoint(caller, await readJsonBody(request)) }, { status: 201 })
  })
