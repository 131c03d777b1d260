import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { listModelKeys, removeModelKey, saveModelKey } from '#server/keys/service.ts'
import type { Route } from './+types/[_agent-native].model-keys'

// GET /_agent-native/model-keys → { keys } (masked: •••• and the last 4 characters)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ keys: await listModelKeys(await requireCaller(request)) }))

// PUT { scope, provider?, apiKey } → { key (masked), check } (decision 0514: a key the provider
// refuses is a 400 naming apiKey); DELETE { scope, provider? } → 204
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method === 'PUT') return json(await saveModelKey(caller, await readJsonBody(request)))
    if (request.method === 'DELETE') {
      await removeModelKey(caller, await readJsonBody(request))
      return new Response(null, { status: 204 })
    }
    return methodNotAllowed(request, ['GET', 'PUT', 'DELETE'])
  })
