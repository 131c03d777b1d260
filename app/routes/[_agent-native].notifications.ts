import { requireCaller } from '#server/auth/caller.ts'
import { api } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { listNotifications, markNotificationsRead } from '#server/integrations/views.ts'
import type { Route } from './+types/[_agent-native].notifications'

// GET /_agent-native/notifications → { notifications: [...], unread }
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => listNotifications(await requireCaller(request)))

// POST { ids? } marks them (or all) read → { unread }
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    const caller = await requireCaller(request)
    return { unread: await markNotificationsRead(caller, await readJsonBody(request)) }
  })
