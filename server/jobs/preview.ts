/**
 * The live schedule preview behind the job forms: is it valid, what does it say in English, and
 * when would it fire next. Pure, and never throws on bad input: a preview answers, it does not fail.
 */
import { describeCron, nextRuns } from '../cron/cron.ts'
import { Schedule, Timezone } from './schema.ts'

export type SchedulePreview =
  | { valid: true; description: string; nextRuns: string[] }
  | { valid: false; field: 'schedule' | 'timezone'; message: string }

/** How many upcoming fire times the preview lists. */
export const PREVIEW_COUNT = 5

/**
 * Validates a schedule and zone (default UTC) and, when both are good, describes them and lists the
 * next {@link PREVIEW_COUNT} fire times after `now` as ISO strings.
 */
export function previewSchedule(
  input: { schedule?: unknown; timezone?: unknown },
  now: Date = new Date(),
): SchedulePreview {
  const schedule = Schedule.safeParse(input.schedule)
  if (!schedule.success) {
    return { valid: false, field: 'schedule', message: `schedule: ${schedule.error.issues[0]?.message}` }
  }
  const zone = input.timezone === undefined || input.timezone === '' ? 'UTC' : input.timezone
  const timezone = Timezone.safeParse(zone)
  if (!timezone.success) {
    return { valid: false, field: 'timezone', message: `timezone: ${timezone.error.issues[0]?.message}` }
  }
  const runs = nextRuns(schedule.data, { after: now, timezone: timezone.data, count: PREVIEW_COUNT })
  return {
    valid: true,
    description: describeCron(schedule.data, { timezone: timezone.data }),
    nextRuns: runs.map((run) => run.toISOString()),
  }
}
