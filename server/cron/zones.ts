/** Time zone checks and wall-clock reads, sharing one Intl.DateTimeFormat per zone. */

/**
 * True for an IANA time zone name the runtime knows (`UTC`, `Europe/Berlin`, links such as
 * `US/Pacific`). Offsets such as `+05:00` are rejected even where newer runtimes accept them: they
 * have no DST rules, so a schedule in one silently drifts from the place the person meant.
 */
export function isValidTimezone(zone: string): boolean {
  return typeof zone === 'string' && /^[A-Za-z]/.test(zone) && formatterFor(zone) !== null
}

// Building an Intl.DateTimeFormat costs about 0.4 ms, so keep one per valid zone (a bounded set).
const formatters = new Map<string, Intl.DateTimeFormat>()
const WALL_CLOCK: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
}

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let format = formatters.get(zone)
  if (format) return format
  try {
    format = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: zone })
  } catch {
    return null
  }
  formatters.set(zone, format)
  return format
}

/** The wall-clock time in `zone` at `instant`, written as if it were a UTC timestamp. */
export function wallClock(zone: string, instant: number): number {
  const format = formatterFor(zone)
  if (!format) throw new RangeError(`Unknown timezone "${zone}"`)
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {}
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value)
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = part
  return Date.UTC(year, month - 1, day, hour, minute, second)
}
