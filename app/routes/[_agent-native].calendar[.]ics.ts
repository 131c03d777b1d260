import { appUrl } from '#server/auth/auth.ts'
import { renderCalendarFeed } from '#server/calendar/feed.ts'
import { callerForCalendarToken } from '#server/calendar/tokens.ts'
import { api } from '#server/http/respond.ts'
import { unauthorized } from '#server/lib/errors.ts'
import type { Route } from './+types/[_agent-native].calendar[.]ics'

// GET /_agent-native/calendar.ics?token=cwc_… → text/calendar: the token's owner's upcoming runs
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const token = new URL(request.url).searchParams.get('token') ?? ''
    const caller = await callerForCalendarToken(token)
    if (!caller) throw unauthorized('A valid calendar token is required (make one on the Calendar page)')
    return new Response(await renderCalendarFeed(caller, appUrl()), {
      headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, no-cache' },
    })
  })
