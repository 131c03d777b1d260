import { canonicalZone, isValidTimezone } from './zones.ts'
import { placeWallTime } from './next-runs.ts'

/**
 * The two schedule kinds beside cron, written in the same `schedule` string:
 * - `at 2026-12-24T09:00`: one shot, a wall-clock minute in the job's zone (a time inside a DST gap
 *   runs when the gap ends, a repeated one at its first occurrence, as fixed-time cron jobs do);
 * - `every 90m` (also `2h`, `1d`, `1h30m`): a fixed interval of real time, at least one minute.
 *   Slots are whole multiples of the interval since 1970-01-01T00:00Z, so each slot is exactly one
 *   interval after the previous one whichever instance computes it, after any downtime, with no
 *   stored anchor (docs/decisions/0090-every-counts-from-the-epoch.md).
 */

const MINUTE = 60_000
/** The longest interval: past a month, a calendar schedule (cron or `at`) says it better. */
export const MAX_EVERY_MINUTES = 31 * 24 * 60

export type ScheduleKind =
  | { kind: 'cron' }
  | { kind: 'at'; wall: number; text: string }
  | { kind: 'every'; minutes: number }
  | { kind: 'at' | 'every'; error: string }

const AT = /^at\s+(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/i
// Both patterns are linear: no two adjacent quantifiers can take the same characters. Their
// earlier forms (`\s+(.*)$`, and a `\s*` between the units' groups) were quadratic on a run of
// spaces before a stray character: 100,000 characters held the event loop for about ten seconds.
const EVERY = /^every\s+([^]*)$/i
const INTERVAL = /^(?:(\d+)\s*d\s*)?(?:(\d+)\s*h\s*)?(?:(\d+)\s*m(?:in)?)?$/i

/** Which kind `expr` is; `at …`/`every …` carry their value or an error fit to show a person. */
export function scheduleKind(expr: string): ScheduleKind {
  const text = expr.trim()
  if (/^at\b/i.test(text)) return parseAt(text)
  const every = EVERY.exec(text)
  if (every) return parseEvery(every[1]!.trim())
  return { kind: 'cron' }
}

function parseAt(text: string): ScheduleKind {
  const m = AT.exec(text)
  if (!m) return { kind: 'at', error: 'at: must be a date and time like 2026-12-24T09:00' }
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number]
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  const back = new Date(wall)
  const real =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    hour < 24 &&
    minute < 60
  if (!real) return { kind: 'at', error: `at: ${text.slice(3).trim()} is not a real date and time` }
  if (year < 2000 || year > 2999) return { kind: 'at', error: 'at: the year must be from 2000 to 2999' }
  return { kind: 'at', wall, text: new Date(wall).toISOString().slice(0, 16) }
}

function parseEvery(value: string): ScheduleKind {
  if (/^\d+\s*s(ec(onds?)?)?$/i.test(value)) {
    return { kind: 'every', error: 'every: the shortest interval is 1 minute (1m)' }
  }
  const m = value === '' ? null : INTERVAL.exec(value)
  if (!m) return { kind: 'every', error: 'every: must be an interval like 90m, 2h, 1d or 1h30m' }
  const [d = 0, h = 0, min = 0] = m.slice(1).map((v) => Number(v ?? 0))
  const minutes = d * 1440 + h * 60 + min
  if (minutes < 1) return { kind: 'every', error: 'every: the shortest interval is 1 minute (1m)' }
  if (minutes > MAX_EVERY_MINUTES)
    return { kind: 'every', error: 'every: the longest interval is 31 days (31d)' }
  return { kind: 'every', minutes }
}

/** Runs of an `at`/`every` schedule strictly after `after` (at most `count`). */
export function kindRuns(kind: ScheduleKind, zone: string, after: number, count: number): Date[] {
  if ('error' in kind) throw new TypeError(kind.error)
  if (kind.kind === 'at') {
    const instant = placeWallTime(zone, kind.wall)
    return instant > after ? [new Date(instant)] : []
  }
  if (kind.kind === 'every') {
    const step = kind.minutes * MINUTE
    const first = (Math.floor(after / step) + 1) * step
    return Array.from({ length: count }, (_, i) => new Date(first + i * step))
  }
  throw new TypeError('not an at/every schedule')
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "Once on 24 Dec 2026 at 09:00 (Europe/Berlin)", "Every 90 minutes"; null for cron. */
export function describeKind(kind: ScheduleKind, timezone: string | undefined): string | null {
  if (kind.kind === 'cron') return null
  if ('error' in kind) return `Invalid schedule: ${kind.error}`
  if (kind.kind === 'every') return `Every ${interval(kind.minutes)}`
  const d = new Date(kind.wall)
  const time = kind.text.slice(11)
  const text = `Once on ${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${time}`
  if (timezone === undefined) return text
  return isValidTimezone(timezone)
    ? `${text} (${canonicalZone(timezone) ?? timezone})`
    : `${text} (unknown timezone "${timezone}")`
}

function interval(minutes: number): string {
  const unit = (n: number, word: string) => (n === 1 ? word : `${n} ${word}s`)
  if (minutes % 1440 === 0) return unit(minutes / 1440, 'day')
  if (minutes % 60 === 0) return unit(minutes / 60, 'hour')
  return unit(minutes, 'minute')
}
