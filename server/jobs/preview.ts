/**
 * The live schedule preview behind the job forms: is it valid, what does it say in English, and
 * when would it fire next. Never throws on bad input: a preview answers, it does not fail.
 */
import { describeSchedule, nextRuns } from '../cron/cron.ts'
import { HttpError } from '../lib/errors.ts'
import { foldScheduleKeys } from './schedule-keys.ts'
import { Schedule, Timezone } from './schema.ts'
import { letTheLoopGo } from '../lib/loop-turn.ts'

export type SchedulePreview =
  | { valid: true; description: string; nextRuns: string[] }
  | { valid: false; field: 'schedule' | 'at' | 'every' | 'timezone'; message: string }

/** How many upcoming fire times the preview lists. */
export const PREVIEW_COUNT = 5
/**
 * How far ahead the preview looks (the form says so when nothing fires in it). Five runs of a
 * leap-day job fit in it; without it, a schedule firing twice on 29 February in a zone not looked
 * at before walked a decade or more of the zone's offsets a request (decision 0513).
 */
export const PREVIEW_HORIZON_YEARS = 20

/**
 * Validates a schedule and zone (default UTC) and, when both are good, describes them and lists the
 * next {@link PREVIEW_COUNT} fire times after `now` (within {@link PREVIEW_HORIZON_YEARS}) as ISO
 * strings.
 */
export async function previewSchedule(
  input: { schedule?: unknown; at?: unknown; every?: unknown; timezone?: unknown },
  now: Date = new Date(),
): Promise<SchedulePreview> {
  let folded: { schedule?: unknown }
  try {
    // A form's empty schedule box beside an `at`/`every` value is not a second schedule.
    folded = foldScheduleKeys({
      ...input,
      schedule: input.schedule === '' ? undefined : input.schedule,
    }) as typeof folded
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return { valid: false, field: err.field as 'at' | 'every', message: err.message }
  }
  const schedule = Schedule.safeParse(folded.schedule ?? '')
  if (!schedule.success) {
    return { valid: false, field: 'schedule', message: `schedule: ${schedule.error.issues[0]?.message}` }
  }
  const zone = input.timezone === undefined || input.timezone === '' ? 'UTC' : input.timezone
  const timezone = Timezone.safeParse(zone)
  if (!timezone.success) {
    return { valid: false, field: 'timezone', message: `timezone: ${timezone.error.issues[0]?.message}` }
  }
  const runs = await runsAhead(schedule.data, timezone.data, now)
  return {
    valid: true,
    description: describeSchedule(schedule.data, { timezone: timezone.data }),
    nextRuns: runs.map((run) => run.toISOString()),
  }
}

/**
 * The first {@link PREVIEW_COUNT} runs within the horizon, a year at a time, letting the event loop
 * go between years. A year's runs in a zone not looked at before read its offsets for that year (a
 * few milliseconds); a schedule firing on 29 February walks up to the whole horizon, which in one
 * call held the loop for 20 to 100 ms of anyone's typing.
 */
async function runsAhead(schedule: string, timezone: string, now: Date): Promise<Date[]> {
  const end = yearsAfter(now, PREVIEW_HORIZON_YEARS).getTime()
  const runs: Date[] = []
  for (let start = now.getTime(); runs.length < PREVIEW_COUNT && start < end;) {
    if (start > now.getTime()) await letTheLoopGo()
    const stop = Math.min(yearsAfter(new Date(start), 1).getTime(), end)
    // Runs strictly after `after` and before `until`: a later year starts a millisecond before its
    // first instant, which the year before stopped short of.
    const after = new Date(start === now.getTime() ? start : start - 1)
    const count = PREVIEW_COUNT - runs.length
    runs.push(...nextRuns(schedule, { after, until: new Date(stop), timezone, count }))
    start = stop
  }
  return runs
}

function yearsAfter(date: Date, years: number): Date {
  const later = new Date(date)
  later.setUTCFullYear(later.getUTCFullYear() + years)
  return later
}
