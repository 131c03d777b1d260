/** Time zone checks and wall-clock reads, sharing one Intl.DateTimeFormat per zone. */
import { BoundedCache } from '../lib/lru.ts'

/**
 * True for an IANA time zone name the runtime knows (`UTC`, `Europe/Berlin`, links such as
 * `US/Pacific`). Offsets such as `+05:00` are rejected even where newer runtimes accept them: they
 * have no DST rules, so a schedule in one silently drifts from the place the person meant.
 */
export function isValidTimezone(zone: string): boolean {
  return typeof zone === 'string' && /^[A-Za-z]/.test(zone) && formatterFor(zone) !== null
}

// Building an Intl.DateTimeFormat costs about 0.4 ms, so one is kept per zone. Intl accepts any
// letter casing ("europe/BERLIN") and link names, so a zone is first resolved to its canonical
// name, and only canonical zones get a formatter (a few hundred at most). The spellings seen are
// remembered in a bounded cache: 20,000 casings of one zone cost 2,000 small entries, not 20,000
// formatters (an unbounded Map of formatters once grew the heap by over a gigabyte that way).
type Zone = { canonical: string; format: Intl.DateTimeFormat } | null
const spellings = new BoundedCache<string, Zone>(2_000)
const canonicalZones = new BoundedCache<string, Intl.DateTimeFormat>(1_000)
const WALL_CLOCK: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
}

function resolveZone(zone: string): Zone {
  let canonical: string
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return null
  }
  const format = canonicalZones.getOrCreate(
    canonical,
    () => new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: canonical }),
  )
  return { canonical, format }
}

function zoneFor(zone: string): Zone {
  if (typeof zone !== 'string' || zone.length > 100) return null
  return spellings.getOrCreate(zone, resolveZone)
}

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  return zoneFor(zone)?.format ?? null
}

/** The runtime's canonical name for a valid zone (`europe/berlin` → `Europe/Berlin`), else null. */
export function canonicalZone(zone: string): string | null {
  return zoneFor(zone)?.canonical ?? null
}

/** How many zone spellings and canonical zones are cached (for the tests of the bounds). */
export const zoneCacheSizes = () => ({ spellings: spellings.size, canonical: canonicalZones.size })

/** The wall-clock time in `zone` at `instant`, written as if it were a UTC timestamp. */
export function wallClock(zone: string, instant: number): number {
  const format = formatterFor(zone)
  if (!format) throw new RangeError(`Unknown timezone "${zone}"`)
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {}
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value)
  const { month = 1, day = 1, hour = 0, minute = 0, second = 0 } = part
  // The year is taken from the instant, not from Intl, which leaves the era out (1 BC reads as
  // year 1): a wall clock is less than a day from UTC, so its year differs only across New Year.
  const wall = new Date(instant)
  const utcMonth = wall.getUTCMonth() + 1
  const shift = month === 12 && utcMonth === 1 ? -1 : month === 1 && utcMonth === 12 ? 1 : 0
  // Set, not Date.UTC, which would read years 0–99 as 1900–1999.
  wall.setUTCFullYear(wall.getUTCFullYear() + shift, month - 1, day)
  return wall.setUTCHours(hour, minute, second, 0)
}
