import { Cron } from 'croner'
import { parseCron, type ParsedCron } from './parse.ts'
import { BoundedCache } from '../lib/lru.ts'
import { canonicalZone, wallClock } from './zones.ts'

/**
 * Next runs and the DST policy: croner finds the runs of interval jobs; fixed-time jobs are placed
 * on the real timeline by hand (see {@link fixedTimeRuns}).
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
 * The next `count` (default 5, at most 100) run instants strictly after `after`, in `timezone`
 * (default UTC), following the DST policy in docs/architecture.md:
 * - a fixed-time job (single minute and single hour) whose wall time occurs twice runs once, at
 *   the first occurrence; one whose wall time does not exist runs once, at the first valid
 *   instant after the gap;
 * - every other job follows real time: repeated wall times run on both passes, missing ones are
 *   skipped.
 *
 * Throws a TypeError for an invalid schedule and a RangeError for an unknown zone, an invalid
 * date or a bad count: callers validate input first, so these are programming errors.
 */
export function nextRuns(expr: string, options: { after: Date; timezone?: string; count?: number }): Date[] {
  const { after, timezone = 'UTC', count = 5 } = options
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
    throw new RangeError(`count must be an integer from 1 to ${MAX_COUNT}, got ${count}`)
  }
  if (!(after instanceof Date) || Number.isNaN(after.getTime())) {
    throw new RangeError('after must be a valid Date')
  }
  const zone = canonicalZone(timezone)
  if (!zone) throw new RangeError(`Unknown timezone "${timezone}"`)
  const cron = parseOrThrow(expr)
  if (cron.fixedTime) return fixedTimeRuns(cron.pattern, zone, after.getTime(), count)
  // Croner 11's own DST handling is the policy for interval jobs (checked by the tests).
  return cronFor(cron.pattern, zone).nextRuns(count, after)
}

// Croner parses its pattern again for every instance; a paused instance holds no timer and
// nextRuns(count, after) does not change it, so one per (pattern, canonical zone) is reused.
// Only canonical zones reach croner: it keeps an unbounded formatter per zone string itself.
const crons = new BoundedCache<string, Cron>(2_000)
function cronFor(pattern: string, zone: string | 0): Cron {
  return crons.getOrCreate(`${pattern}\u0000${zone}`, () =>
    zone === 0
      ? new Cron(pattern, { mode: '5-part', utcOffset: 0, paused: true })
      : new Cron(pattern, { mode: '5-part', timezone: zone, paused: true }),
  )
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
function fixedTimeRuns(pattern: string, zone: string, after: number, count: number): Date[] {
  // A zero UTC offset rather than timezone 'UTC': the same wall clock, without croner's Intl calls.
  const wallCron = cronFor(pattern, 0)
  const runs: Date[] = []
  // Start a day back in wall time: a run pushed out of a gap lands later than its wall time says, so
  // it may still be after `after` (offsets never jump by a day or more); the filter drops the rest.
  const start = new Date(wallClock(zone, after) - DAY)
  for (let wall = wallCron.nextRun(start); wall && runs.length < count; wall = wallCron.nextRun(wall)) {
    const instant = placeWallTime(zone, wall.getTime())
    if (instant > after) runs.push(new Date(instant))
  }
  return runs
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
  let low = wall - after
  let high = wall - before
  while (high - low > SECOND) {
    const middle = low + Math.floor((high - low) / (2 * SECOND)) * SECOND
    if (offsetAt(zone, middle) === before) low = middle
    else high = middle
  }
  return high
}
