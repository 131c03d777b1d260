/**
 * The fields people send that better-auth stores, checked before it writes them: a person's name,
 * address, picture and time zone (sign-up and update-user); an organisation's name, slug, logo and
 * metadata (create and update organisation); a member's role and an invitation's address (invite and
 * role change). A 500 KB name was embedded in every job view, and `Mars/Olympus` broke chat and that
 * user's runs, before these checks; decisions 0530 and 0532 list the rest.
 */
import { badFields, badRequest, type FieldProblem, type HttpError } from '../lib/errors.ts'
import { isValidTimezone } from '../cron/zones.ts'
import { findUnstorableText, notPlainLine, unstorableText } from '../lib/text.ts'

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
  metadata?: unknown
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
  pushProblem(problems, 'logo', pictureProblem(logo))
  pushProblem(problems, 'metadata', metadataProblem(fields.metadata))
  return problems.length ? badFields(problems) : null
}

function pushProblem(problems: FieldProblem[], field: string, problem: string | null) {
  if (problem) problems.push({ field, message: `${field}: ${problem}` })
}

/** Why a logo or a person's picture (an address; absent or null clears it) cannot be stored, or null. */
function pictureProblem(address: unknown): string | null {
  if (address === undefined || address === null) return null
  if (typeof address !== 'string') return 'must be a string'
  if (address.length > MAX_ORGANIZATION_LOGO) return `must be at most ${MAX_ORGANIZATION_LOGO} characters`
  return notPlainLine(address)
}

/** Organisation metadata, stored as JSON text and read by nothing in Clockwork: at most this long. */
export const MAX_ORGANIZATION_METADATA = 4096

/**
 * Why an organisation's metadata cannot be stored, or null (absent is not checked): a JSON object
 * of at most {@link MAX_ORGANIZATION_METADATA} characters as JSON, with no text PostgreSQL could
 * not store once parsed back. Nested past what JSON.stringify takes (better-auth calls it) is too
 * large too: that was a 500.
 */
function metadataProblem(metadata: unknown): string | null {
  if (metadata === undefined) return null
  const tooLarge = `must be a JSON object of at most ${MAX_ORGANIZATION_METADATA} characters`
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return tooLarge
  let json: string
  try {
    json = JSON.stringify(metadata)
  } catch {
    return tooLarge
  }
  if (json.length > MAX_ORGANIZATION_METADATA) return tooLarge
  const unstorable = findUnstorableText(metadata)[0]
  return unstorable ? `${[...unstorable.path, ''].join(': ')}${unstorable.reason}` : null
}

/** The longest address a mailbox can have (RFC 5321's path limit less its brackets). */
export const MAX_EMAIL = 254

/** Why an address cannot be stored (absent is not checked; better-auth checks its form), or null. */
function emailProblem(email: unknown): string | null {
  if (email === undefined) return null
  if (typeof email !== 'string') return 'must be a string'
  if (email.length > MAX_EMAIL) return `must be at most ${MAX_EMAIL} characters`
  return unstorableText(email)
}

/** Why a time zone (absent or empty: none) cannot be stored, or null. */
function timezoneProblem(zone: unknown): string | null {
  if (zone === undefined || zone === null || zone === '') return null
  if (typeof zone === 'string' && zone.length <= 64 && isValidTimezone(zone)) return null
  const shown = typeof zone === 'string' ? JSON.stringify(zone.slice(0, 64)) : `of type ${typeof zone}`
  return `unknown time zone ${shown} (use an IANA name like Europe/Berlin)`
}

/** Every problem with the given user fields in one 400, or null. Absent fields are not checked. */
export function checkUserFields(fields: {
  name?: unknown
  email?: unknown
  image?: unknown
  timezone?: unknown
}): HttpError | null {
  const problems: FieldProblem[] = []
  const name = checkDisplayName(fields.name)
  if (name) problems.push({ field: 'name', message: name.message })
  pushProblem(problems, 'email', emailProblem(fields.email))
  pushProblem(problems, 'image', pictureProblem(fields.image))
  pushProblem(problems, 'timezone', timezoneProblem(fields.timezone))
  return problems.length ? badFields(problems) : null
}

/** The roles Clockwork knows; a membership has exactly one (better-auth would also take a list). */
const ROLES = new Set(['owner', 'admin', 'member'])

/**
 * An invitation's or a role change's fields (absent ones are left to better-auth): the role one of
 * owner, admin or member, written alone, and the address storable and at most {@link MAX_EMAIL}
 * characters. A comma-joined role was stored as given, and our checks that compare a role read it
 * as none of the three; a 200 KB address was a 500 from the address's index.
 */
export function checkMemberFields(fields: { email?: unknown; role?: unknown }): HttpError | null {
  const problems: FieldProblem[] = []
  pushProblem(problems, 'email', emailProblem(fields.email))
  if (fields.role !== undefined && !(typeof fields.role === 'string' && ROLES.has(fields.role)))
    pushProblem(problems, 'role', 'must be one of owner, admin or member')
  return problems.length ? badFields(problems) : null
}
