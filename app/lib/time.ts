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

/**
 * Intl formatters cost ~0.1–0.4 ms to build and a server render of a list formats a few hundred
 * times, so they are shared. The cache is bounded: zone names arrive from data, and every distinct
 * string (`europe/berlin`, `EUROPE/berlin`, …) would otherwise keep its own formatter forever.
 */
const MAX_FORMATTERS = 200
const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>()

function shared<T extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, create: () => T): T {
  let format = formatters.get(key) as T | undefined
  if (!format) {
    format = create()
    if (formatters.size >= MAX_FORMATTERS) formatters.delete(formatters.keys().next().value!)
    formatters.set(key, format)
  }
  return format
}

/** How many formatters are cached (for the test of the bound). */
export const cachedFormatterCount = () => formatters.size

/** "in 3 hours", "5 minutes ago", "now": the largest unit that fits, rounded. */
export function formatRelative(date: Date, now: Date, locale?: string): string {
  const seconds = (date.getTime() - now.getTime()) / 1000
  const format = shared(`relative|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }))
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
  const { locale = 'en-GB', timeZone } = options
  const format = shared(
    `exact|${locale}|${timeZone}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone,
      }),
  )
  return format.format(date)
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
