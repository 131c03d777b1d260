import { Cron } from 'croner'
import { parseCron, type ParsedCron } from './parse.ts'
import { BoundedCache } from '../lib/lru.ts'
import { canonicalZone, wallClock } from './zones.ts'

/**
 * Next runs and the DST policy. Croner matches wall-clock times only; this file puts them on the
 * real timeline: interval jobs stretch by stretch of one UTC offset ({@link intervalRuns}),
 * fixed-time jobs one run at a time ({@link fixedTimeRuns}).
 */

const SECOND = 1000
const DAY = 86_400_000
/** Upper bound on `count`: enough for any preview, small enough that a typo cannot stall a request. */
const MAX_COUNT = 100

function parseOrThrow(expr: string): ParsedCron {
  const parsed = parseCron(expr)
  if (!parsed.ok) throw new TypeError(`Invalid schedule "${expr}": ${parsed.message}`)
  return parsed.cron
}

/**
 * The next `count` (default 5, at most 100) run instants strictly after `after` and, when `until`
 * is given, before it, in `timezone` (default UTC), following the DST policy in
 * docs/architecture.md:
 * - a fixed-time job (single minute and single hour) whose wall time occurs twice runs once, at
 *   the first occurrence; one whose wall time does not exist runs once, at the first valid
 *   instant after the gap;
 * - every other job follows real time: repeated wall times run on both passes, missing ones are
 *   skipped.
 *
 * `until` is what keeps a rare schedule cheap: no run at or past it is computed. A schedule that
 * fires twice on 29 February has 25 runs over about 52 years, and each year of a zone's offsets
 * costs hundreds of `Intl` calls the first time; a caller that shows a window passes its end.
 *
 * Throws a TypeError for an invalid schedule and a RangeError for an unknown zone, an invalid
 * date or a bad count: callers validate input first, so these are programming errors.
 */
export function nextRuns(expr: string, options: NextRunsOptions): Date[] {
  const { after, timezone = 'UTC', count = 5, until } = options
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
    throw new RangeError(`count must be an integer from 1 to ${MAX_COUNT}, got ${count}`)
  }
  for (const [name, date] of [
    ['after', after],
    ['until', until ?? after],
  ] as const) {
    if (!(date instanceof Date) || Number.isNaN(date.getTime()))
      throw new RangeError(`${name} must be a valid Date`)
  }
  const zone = canonicalZone(timezone)
  if (!zone) throw new RangeError(`Unknown timezone "${timezone}"`)
  const cron = parseOrThrow(expr)
  const bounds = { after: after.getTime(), until: until?.getTime() ?? Infinity, count }
  if (cron.fixedTime) return fixedTimeRuns(cron.pattern, zone, bounds)
  return intervalRuns(cron.pattern, zone, bounds)
}

export type NextRunsOptions = { after: Date; timezone?: string; count?: number; until?: Date }
/** Runs strictly after `after` and before `until`, at most `count` of them. */
type Bounds = { after: number; until: number; count: number }

// Croner parses its pattern again for every instance; a paused instance holds no timer and
// nextRun(after) does not change it, so one per pattern is reused. Croner only ever matches wall
// clocks here, at a zero UTC offset: with a zone it asks Intl for the wall time several times a
// step, about 100 µs a run against 14 µs (200 hourly jobs over a month are 20,000 runs).
const crons = new BoundedCache<string, Cron>(2_000)
function wallCronFor(pattern: string): Cron {
  return crons.getOrCreate(pattern, () => new Cron(pattern, { mode: '5-part', utcOffset: 0, paused: true }))
}

/** The first run strictly after `after`, or null if the schedule has none. See {@link nextRuns}. */
export function nextRun(expr: string, options: { after: Date; timezone?: string }): Date | null {
  return nextRuns(expr, { ...options, count: 1 })[0] ?? null
}

/**
 * Fixed-time jobs are placed by hand. Croner 11.0.1 moves a run out of a DST gap only when the gap
 * ends on the same local date, so a 23:30 job is dropped for a day in America/Nuuk, whose clocks
 * jump from 23:00 to 00:00. Here croner only matches wall-clock times (in UTC, where none are
 * missing or repeated) and each one is put on the real timeline: its first occurrence, or the
 * instant the gap ends.
 */
function fixedTimeRuns(pattern: string, zone: string, { after, until, count }: Bounds): Date[] {
  const wallCron = wallCronFor(pattern)
  const runs: Date[] = []
  // Start a day back in wall time: a run pushed out of a gap lands later than its wall time says, so
  // it may still be after `after` (offsets never jump by a day or more); the filter drops the rest.
  const start = new Date(wallClock(zone, after) - DAY)
  for (let wall = wallCron.nextRun(start); wall && runs.length < count; wall = wallCron.nextRun(wall)) {
    const instant = placeWallTime(zone, wall.getTime())
    // Wall times of a fixed-time job are a day or more apart, so their instants keep their order.
    if (instant >= until) break
    if (instant > after) runs.push(new Date(instant))
  }
  return runs
}

/**
 * Interval jobs follow real time: an instant runs when its wall time matches. Between two changes
 * of the zone's offset the wall clock is the instant plus a constant, so each such stretch is
 * matched on the wall clock and moved back by its offset: a repeated wall time is met in both
 * stretches (both passes run), a missing one in neither (it is skipped).
 */
function intervalRuns(pattern: string, zone: string, { after, until, count }: Bounds): Date[] {
  const wallCron = wallCronFor(pattern)
  const runs: Date[] = []
  // Runs are strictly after `from`; each pass of the loop is one stretch of a single offset.
  for (let from = after; from + 1 < until;) {
    const offset = offsetAt(zone, from + 1)
    const end = nextOffsetChange(zone, from + 1, until)
    for (let wall = wallCron.nextRun(new Date(from + offset)); ; wall = wallCron.nextRun(wall)) {
      if (!wall) return runs // the pattern never matches again
      const instant = wall.getTime() - offset
      if (instant >= until) return runs
      if (instant >= end) break
      runs.push(new Date(instant))
      if (runs.length === count) return runs
    }
    from = end - 1
  }
  return runs
}

/**
 * The first instant after `instant` at which `zone`'s offset differs from its offset at `instant`;
 * when it does not change for the rest of the year, the end of that year if `until` comes by then,
 * else of the next year (the caller then goes on with the same offset). A year past `until` is
 * never read: the first read of a zone-year is the expensive part.
 */
function nextOffsetChange(zone: string, instant: number, until: number): number {
  const year = new Date(instant).getUTCFullYear()
  for (const y of [year, year + 1]) {
    const change = offsetChanges(zone, y).find((at) => at > instant)
    if (change !== undefined) return change
    if (Date.UTC(y + 1, 0, 1) >= until) return Date.UTC(y + 1, 0, 1)
  }
  return Date.UTC(year + 2, 0, 1)
}

/**
 * The instants in a UTC year at which `zone`'s offset changes (each the first second of the new
 * offset), found by reading the offset every {@link PROBE_DAYS} days and narrowing each change to
 * the second. Like {@link placeWallTime}, this relies on no zone changing its offset twice within
 * two days (two changes in one probe would cancel out unseen).
 */
const changesByYear = new BoundedCache<string, number[]>(2_000)
/**
 * Days between two reads of the offset: each read is an `Intl` call, and a zone-year read daily was
 * 4–30 ms (decision 0513). The closest changes of any zone the runtime knows, 2024–2063, are a week
 * apart (Asia/Gaza around Ramadan), so two days leaves the margin {@link placeWallTime} assumes.
 */
const PROBE_DAYS = 2
function offsetChanges(zone: string, year: number): number[] {
  return changesByYear.getOrCreate(`${zone}\u0000${year}`, () => {
    const changes: number[] = []
    const last = Date.UTC(year + 1, 0, 1)
    let low = Date.UTC(year, 0, 1)
    let offset = offsetAt(zone, low)
    while (low < last) {
      const high = Math.min(low + PROBE_DAYS * DAY, last)
      const next = offsetAt(zone, high)
      if (next !== offset) changes.push(firstSecondOfChange(zone, low, high, offset))
      low = high
      offset = next
    }
    return changes
  })
}

/** The first second in (low, high] at which `zone`'s offset is no longer `offset`. */
function firstSecondOfChange(zone: string, low: number, high: number, offset: number): number {
  while (high - low > SECOND) {
    const middle = low + Math.floor((high - low) / (2 * SECOND)) * SECOND
    if (offsetAt(zone, middle) === offset) low = middle
    else high = middle
  }
  return high
}

/** UTC offset of `zone` at `instant`, in milliseconds. */
const offsetAt = (zone: string, instant: number) =>
  wallClock(zone, instant) - Math.floor(instant / SECOND) * SECOND

/** The instant a wall-clock time runs at: its first occurrence, or the end of the gap it falls in. */
export function placeWallTime(zone: string, wall: number): number {
  // No zone changes its offset twice within two days, so the offsets a day either side are the
  // only ones that can apply.
  const before = offsetAt(zone, wall - DAY)
  const after = offsetAt(zone, wall + DAY)
  if (before === after) return wall - before
  const fits = [wall - before, wall - after].filter((instant) => wallClock(zone, instant) === wall)
  if (fits.length > 0) return Math.min(...fits)
  // In a gap: the clock jumped from before to after somewhere between these two instants.
  return firstSecondOfChange(zone, wall - after, wall - before, before)
}
