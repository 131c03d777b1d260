/**
 * The user fields people type (name, time zone), checked wherever better-auth writes them:
 * sign-up and update-user; and organisation names (create and update organisation). A 500 KB name was embedded in every job view, and `Mars/Olympus` broke
 * chat and that user's runs, before these checks.
 */
import { badRequest, type HttpError } from '../lib/errors.ts'
import { isValidTimezone } from '../cron/zones.ts'
import { notPlainLine } from '../lib/text.ts'

export const MAX_USER_NAME = 100

/**
 * A person's or an organisation's name as people type it: one line of plain text, at most
 * {@link MAX_USER_NAME} characters. A bare CR in an organisation's name once reached every
 * member's calendar feed as a line of its own.
 */
export function checkDisplayName(name: unknown): HttpError | null {
  if (name === undefined) return null
  if (typeof name !== 'string' || name.trim() === '') return badRequest('name: is required', 'name')
  if (name.length > MAX_USER_NAME)
    return badRequest(`name: must be at most ${MAX_USER_NAME} characters`, 'name')
  const unsafe = notPlainLine(name)
  return unsafe ? badRequest(`name: ${unsafe}`, 'name') : null
}

/** The first problem with the given user fields, or null. Absent fields are not checked. */
export function checkUserFields(fields: { name?: unknown; timezone?: unknown }): HttpError | null {
  const invalidName = checkDisplayName(fields.name)
  if (invalidName) return invalidName
  if (fields.timezone !== undefined && fields.timezone !== null && fields.timezone !== '') {
    const zone = fields.timezone
    if (typeof zone !== 'string' || zone.length > 64 || !isValidTimezone(zone)) {
      return badRequest(
        `timezone: unknown time zone ${JSON.stringify(String(zone).slice(0, 64))} (use an IANA name like Europe/Berlin)`,
        'timezone',
      )
    }
  }
  return null
}
