/**
 * The user fields people type (name, time zone), checked wherever better-auth writes them:
 * sign-up and update-user; and an organisation's name, slug and logo (create and update organisation). A 500 KB name was embedded in every job view, and `Mars/Olympus` broke
 * chat and that user's runs, before these checks.
 */
import { badFields, badRequest, type FieldProblem, type HttpError } from '../lib/errors.ts'
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

/** An organisation's slug: what its own page and links may show, so a slug like a job's name. */
const ORGANIZATION_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/
/** A logo is an address, at most this long. */
export const MAX_ORGANIZATION_LOGO = 2048

/**
 * The organisation fields a create or update carries that better-auth stores as given (it checks
 * only that they are strings): the name as a person's, the slug as a job's name, the logo one line
 * of at most {@link MAX_ORGANIZATION_LOGO} characters. A NUL in a slug or logo was a 500 from
 * PostgreSQL, and any text of any length was stored. Absent fields are not checked; every bad one
 * is named (decision 0530).
 */
export function checkOrganizationFields(fields: {
  name?: unknown
  slug?: unknown
  logo?: unknown
}): HttpError | null {
  const problems: FieldProblem[] = []
  const name = checkDisplayName(fields.name)
  if (name) problems.push({ field: 'name', message: name.message })
  const { slug, logo } = fields
  if (slug !== undefined && (typeof slug !== 'string' || !ORGANIZATION_SLUG.test(slug)))
    problems.push({
      field: 'slug',
      message: 'slug: must be 1–63 lowercase letters, digits and dashes, not starting with a dash',
    })
  if (logo !== undefined && logo !== null) {
    const unsafe =
      typeof logo !== 'string'
        ? 'must be a string'
        : logo.length > MAX_ORGANIZATION_LOGO
          ? `must be at most ${MAX_ORGANIZATION_LOGO} characters`
          : notPlainLine(logo)
    if (unsafe) problems.push({ field: 'logo', message: `logo: ${unsafe}` })
  }
  return problems.length ? badFields(problems) : null
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
