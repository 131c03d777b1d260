/** Server side of the profile settings page (app/routes/_app.settings.profile.tsx). */
import { setUserTimezone } from '../accounts/store.ts'
import type { Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import { isValidTimezone } from '../cron/cron.ts'

/** The caller's saved zone (null: none yet, the page offers the browser's). */
export function loadProfile(caller: Caller) {
  return { name: caller.name, email: caller.email, timezone: caller.timezone }
}

/** Saves the zone new jobs default to. Only real IANA names are stored. */
export async function saveProfile(caller: Caller, request: Request) {
  return runForm(
    request,
    async ({ timezone = '' }) => {
      const zone = timezone.trim()
      if (!isValidTimezone(zone)) {
        throw badRequest(
          `timezone: unknown time zone "${zone}" (use an IANA name like Europe/Berlin)`,
          'timezone',
        )
      }
      await setUserTimezone(caller.userId, zone)
      return { timezone: zone }
    },
    'save',
  )
}
