import { requireCaller } from '#server/auth/caller.ts'
import { getSecret, removeSecret, saveSecret } from '#server/keys/secrets-service.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].secrets.$scope.$name'

// GET /_agent-native/secrets/{personal|org}/:name → { secret: { scope, name, updatedAt } } (no value)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({ secret: await getSecret(await requireCaller(request), params.scope, params.name) }))

// PUT { value } → { secret } (write-only); DELETE → 204
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method === 'PUT') {
      return json({
        secret: await saveSecret(caller, params.scope, params.name, await readJsonBody(request)),
      })
    }
    if (request.method === 'DELETE') {
      await removeSecret(caller, params.scope, params.name)
      return new Response(null, { status: 204 })
    }
    return methodNotAllowed(request, ['GET', 'PUT', 'DELETE'])
  })
