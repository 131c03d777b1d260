import { requireCaller } from '#server/auth/caller.ts'
import { createCalendarToken, listCalendarTokens } from '#server/calendar/tokens.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed } from '#server/http/request.ts'
import type { Route } from './+types/[_agent-native].calendar.tokens._index'

// GET → { tokens } (yours, in your current organisation)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ tokens: await listCalendarTokens(await requireCaller(request)) }))

// POST → 201 { token (shown this once), summary }; the feed is /_agent-native/calendar.ics?token=…
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    return json(await createCalendarToken(await requireCaller(request)), { status: 201 })
  })
