import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readIfMatch, readTextBody, versionHeaders } from '#server/http/request.ts'
import { MAX_RESOURCE_BYTES } from '#server/resources/paths.ts'
import { resourceResponse } from '#server/http/resource-response.ts'
import { deleteResource, parseScope, readResource, writeResource } from '#server/resources/service.ts'
import type { Route } from './+types/[_agent-native].resources.$scope.$'

// GET /_agent-native/resources/<personal|shared>/<path> → { resource } (raw text for Accept: text/*)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    return resourceResponse(request, await readResource(caller, parseScope(params.scope), params['*']))
  })

// PUT (text body, If-Match optional) → 201 or 200 { resource, job? }; DELETE → 204
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method === 'PUT') {
      const scope = parseScope(params.scope)
      const ifMatch = readIfMatch(request)
      const text = await readTextBody(request, MAX_RESOURCE_BYTES)
      const { created, ...result } = await writeResource(caller, scope, params['*'], text, { ifMatch })
      return json(result, { status: created ? 201 : 200, headers: versionHeaders(result.resource.version) })
    }
    if (request.method === 'DELETE') {
      await deleteResource(caller, parseScope(params.scope), params['*'], { ifMatch: readIfMatch(request) })
      return new Response(null, { status: 204 })
    }
    return methodNotAllowed(request, ['GET', 'PUT', 'DELETE'])
  })
