/**
 * The calendar page: the calendar for the query in the URL, the person's feed tokens and the feed
 * address. Feed tokens are made (shown once) and revoked through the calendar domain.
 */
import type { Caller } from '../auth/caller.ts'
import { loadCalendar } from '../calendar/calendar.ts'
import { createCalendarToken, listCalendarTokens, revokeCalendarToken } from '../calendar/tokens.ts'
import { env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import { orRouteError } from './page-errors.ts'

export async function loadCalendarPage(caller: Caller, request: Request) {
  const url = new URL(request.url)
  const query = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ''))
  const [calendar, tokens] = await Promise.all([
    orRouteError(loadCalendar(caller, query)),
    listCalendarTokens(caller),
  ])
  return { calendar, tokens, origin: env().APP_URL ?? url.origin }
}

/** Form intents: create-token (answers the token once) and revoke-token. */
export async function handleCalendarAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'create-token':
        return { token: (await createCalendarToken(caller)).token }
      case 'revoke-token':
        await revokeCalendarToken(caller, fields.id ?? '')
        return { token: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
