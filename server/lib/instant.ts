/**
 * Instants PostgreSQL can hold. A JavaScript Date reaches from year −271821 to 275760, but the
 * server writes a Date into SQL as `toISOString()`, and PostgreSQL reads neither year 0 (`0000-…`:
 * it has no year 0) nor the signed six-digit years (`-000001-…`, `+010000-…`): a time a caller
 * hands in that reaches a query there is a 500. Years 1 to 9999 in UTC are what `toISOString()`
 * writes as four plain digits, and far more than any schedule, page or history needs.
 */

const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

/**
 * Why `date` cannot go into a PostgreSQL query as a time, or null when it can. Checked on the Date,
 * not on the text it came from: an offset moves `0001-01-01T00:00+01:00` back into year 0.
 */
export function unstorableInstant(date: Date): string | null {
  const time = date.getTime()
  if (Number.isNaN(time)) return 'must be a date and time'
  if (time < EARLIEST || time > LATEST) return 'must be a time from year 0001 to 9999 (UTC)'
  return null
}
