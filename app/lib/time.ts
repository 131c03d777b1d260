/**
 * Time formatting for the UI, with Intl only. Functions take the locale and "now" explicitly so
 * the server render (fixed locale) and the browser (the user's) can both call them.
 */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

/** "in 3 hours", "5 minutes ago", "now": the largest unit that fits, rounded. */
export function formatRelative(date: Date, now: Date, locale?: string): string {
  const seconds = (date.getTime() - now.getTime()) / 1000
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  if (Math.abs(seconds) < 45) return format.format(0, 'second')
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size * 0.9 || unit === 'second') {
      return format.format(Math.round(seconds / size), unit)
    }
  }
  return format.format(0, 'second')
}

/** "Mon 24 Nov 2026, 09:00" in the given zone (the job's, or the viewer's when omitted). */
export function formatExact(date: Date, options: { timeZone?: string; locale?: string } = {}): string {
  return new Intl.DateTimeFormat(options.locale ?? 'en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: options.timeZone,
  }).format(date)
}

/** "GMT+1", "GMT-5": the zone's offset at `at`, for labels next to zone names. */
export function formatZoneOffset(timeZone: string, at = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')
    return part?.value ?? ''
  } catch {
    return ''
  }
}

/** The browser's IANA zone (UTC when the runtime does not say). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/**
 * Every IANA zone the runtime knows, with UTC first: Chromium and Node leave "UTC" out of
 * `supportedValuesOf`, yet it is the default zone of a job.
 */
export function listTimeZones(): string[] {
  if (zoneList) return zoneList
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  zoneList = ['UTC', ...zones.filter((z) => z !== 'UTC')]
  return zoneList
}
let zoneList: string[] | undefined

/** A Date from an ISO string or Date (loaders may hand either), or null. */
export function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}
