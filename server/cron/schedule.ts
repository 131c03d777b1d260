import { describeCron } from './describe.ts'
import { describeKind, kindRuns, scheduleKind } from './kinds.ts'
import { nextRuns as cronNextRuns, type NextRunsOptions } from './next-runs.ts'
import { validateCron } from './parse.ts'
import { canonicalZone } from './zones.ts'

/**
 * A job's schedule of any kind (cron, `at …`, `every …`; see kinds.ts): validation, next runs and
 * words. Every caller goes through these, so the scheduler, previews and the calendar agree.
 */

/**
 * The longest schedule taken. The longest honest one, every value of every field listed, is about
 * 360 characters. Past this a schedule is refused before any pattern reads it, so a stored one
 * stays cheap wherever it is parsed again (the scheduler, job lists, the calendar): a cron list of
 * 200,000 characters took 70–250 ms a parse, and only schedules up to 200 are cached parsed.
 */
export const MAX_SCHEDULE_LENGTH = 1_000

/** Why a schedule text is too long to read ("must be at most …"), or null. */
export const scheduleTooLong = (text: string) =>
  text.length > MAX_SCHEDULE_LENGTH
    ? `must be at most ${MAX_SCHEDULE_LENGTH} characters (this one has ${text.length})`
    : null

/** Valid, or a reason naming the field at fault ("hour: 25 is out of range", "every: …"). */
export function validateSchedule(expr: string): { ok: true } | { ok: false; message: string } {
  const tooLong = scheduleTooLong(expr.trim())
  if (tooLong) return { ok: false, message: `schedule ${tooLong}` }
  const kind = scheduleKind(expr)
  if ('error' in kind) return { ok: false, message: kind.error }
  if (kind.kind !== 'cron') return { ok: true }
  const cron = validateCron(expr)
  return cron.ok ? cron : { ok: false, message: cron.message }
}

/**
 * The next `count` (default 5, at most 100) runs strictly after `after` (and before `until`, when
 * given: see the cron version) in `timezone` (default UTC): cron under the DST policy in
 * docs/architecture.md, `at` once (none once it is past), `every` on its fixed grid. Throws on
 * invalid input, as the cron version does: callers validate first.
 */
export function nextRuns(expr: string, options: NextRunsOptions): Date[] {
  const kind = scheduleKind(expr)
  if (kind.kind === 'cron') return cronNextRuns(expr, options)
  // The cron version checks count, after, until and zone; ask it for one run of a valid pattern to
  // reuse them.
  cronNextRuns('0 0 1 1 *', { ...options, count: options.count ?? 5 })
  const zone = canonicalZone(options.timezone ?? 'UTC')!
  const until = options.until?.getTime() ?? Infinity
  return kindRuns(kind, zone, options.after.getTime(), options.count ?? 5).filter(
    (run) => run.getTime() < until,
  )
}

/** The first run strictly after `after`, or null when the schedule has no more (a past `at`). */
export function nextRun(expr: string, options: { after: Date; timezone?: string }): Date | null {
  return nextRuns(expr, { ...options, count: 1 })[0] ?? null
}

/** Plain English for any kind: "Every weekday at 07:00 (Europe/Berlin)", "Every 90 minutes". */
export function describeSchedule(expr: string, options: { timezone?: string } = {}): string {
  const kind = typeof expr === 'string' ? scheduleKind(expr) : ({ kind: 'cron' } as const)
  return describeKind(kind, options.timezone) ?? describeCron(expr, options)
}

/** True for a one-shot (`at …`) schedule: after its run the job has nothing left to do. */
export const isOneShot = (expr: string) => scheduleKind(expr).kind === 'at'
