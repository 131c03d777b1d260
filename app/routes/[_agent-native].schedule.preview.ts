import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { previewSchedule } from '#server/jobs/service.ts'
import type { Route } from './+types/[_agent-native].schedule.preview'

// GET /_agent-native/schedule/preview?schedule=|at=|every=&timezone= → 200 { valid, ... } even when invalid
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const params = new URL(request.url).searchParams
    const timezone = params.get('timezone') || caller.timezone || 'UTC'
    const given = (key: string) => params.get(key) ?? undefined
    return previewSchedule({ schedule: given('schedule'), at: given('at'), every: given('every'), timezone })
  })

export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    await requireCaller(request)
    return methodNotAllowed(request, ['GET'])
  })
