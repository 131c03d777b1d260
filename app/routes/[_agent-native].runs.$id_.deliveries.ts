import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import { listRunDeliveries } from '#server/integrations/views.ts'
import type { Route } from './+types/[_agent-native].runs.$id_.deliveries'

// GET /_agent-native/runs/:id/deliveries → { deliveries: [{ target, attempt, ok, outcome, pacedUntil, statusCode, durationMs, error, at }] }
export const loader = ({ request, params }: Route.LoaderArgs) =>
  api(async () => ({ deliveries: await listRunDeliveries(await requireCaller(request), params.id) }))

export const action = ({ request }: Route.ActionArgs) => methodNotAllowed(request, ['GET'])
