/**
 * Cron helpers for job schedules: validation with field-level reasons, next-run math under the DST
 * policy in docs/architecture.md ("DST policy"), and plain-English descriptions for the UI.
 *
 * Schedules are standard 5-field cron (minute hour day-of-month month day-of-week) plus the macros
 * `@hourly @daily @midnight @weekly @monthly @yearly @annually`. Croner's extensions (`L`, `W`, `#`,
 * `?`, `+`, seconds and year fields) are rejected: a schedule should mean the same thing to anyone
 * who knows crontab, and a job file may outlive this library.
 *
 * This file is the public surface; the parts live in ./cron/: `fields.ts` (field ranges, names,
 * macros), `parse.ts` (parsing and validation), `zones.ts` (time zone checks and wall clocks),
 * `next-runs.ts` (run times and the DST policy) and `describe.ts` (plain English). Beside cron, a
 * schedule may be `at 2026-12-24T09:00` (one shot) or `every 90m` (fixed interval): `kinds.ts`,
 * dispatched by `schedule.ts`. Import from here.
 */

export { describeCron } from './describe.ts'
export type { CronField } from './fields.ts'
export {
  describeSchedule,
  isOneShot,
  MAX_SCHEDULE_LENGTH,
  nextRun,
  nextRuns,
  scheduleTooLong,
  validateSchedule,
} from './schedule.ts'
export { scheduleKind, MAX_EVERY_MINUTES, type ScheduleKind } from './kinds.ts'
export { isValidCron, validateCron, type CronValidation } from './parse.ts'
export { canonicalZone, isValidTimezone, wallClock } from './zones.ts'
/** The instant a wall-clock time in a zone happens (first pass if repeated, end of the gap if skipped). */
export { placeWallTime as instantOfWallTime } from './next-runs.ts'
