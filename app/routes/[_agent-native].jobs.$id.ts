import { requireCaller } from '#server/auth/caller.ts'
import { conditionalJson } from '#server/http/conditional.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readIfMatch, readJsonBody, versionHeaders } from '#server/http/request.ts'
import { deleteJob, getJob, updateJob } from '#server/jobs/service.ts'
import type { Route } from './+types/[_agent-native].jobs.$id'

// GET /_agent-native/jobs/:id → { job }, ETag "<version>.<digest>" (If-None-Match → 304)
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => {
    const job = await getJob(await requireCaller(request), params.id)
    return conditionalJson(request, { job }, { version: job.version })
  })

// PATCH (If-Match: <version> optional) → { job }; DELETE → 204
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method === 'PATCH') {
      const ifMatch = readIfMatch(request)
      const job = await updateJob(caller, params.id, await readJsonBody(request), { ifMatch })
      return json({ job }, { headers: versionHeaders(job.version) })
    }
    if (request.method === 'DELETE') {
      await deleteJob(caller, params.id, { ifMatch: readIfMatch(request) })
      return new Response(null, { status: 204 })
    }
    return methodNotAllowed(request, ['GET', 'PATCH', 'DELETE'])
  })
