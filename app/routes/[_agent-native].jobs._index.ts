import { requireCaller } from '#server/auth/caller.ts'
import { conditionalJson } from '#server/http/conditional.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody, versionHeaders } from '#server/http/request.ts'
import { createJob, listJobPage } from '#server/jobs/service.ts'
import type { Route } from './+types/[_agent-native].jobs._index'

// GET /_agent-native/jobs?scope=&q=&status=&sort=&dir=&limit=&cursor= → { jobs, total, nextCursor }, ETag
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const page = await listJobPage(caller, Object.fromEntries(new URL(request.url).searchParams))
    return conditionalJson(request, page)
  })

// POST /_agent-native/jobs → 201 { job }
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    const job = await createJob(caller, await readJsonBody(request))
    return json({ job }, { status: 201, headers: versionHeaders(job.version) })
  })
