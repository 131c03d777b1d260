/**
 * `at: 2026-12-24T09:00` and `every: 90m` as keys of their own (API bodies, job files, the agent
 * tool) beside `schedule:`. They are another spelling of the one `schedule` field (stored as
 * `at …`/`every …`; see cron/kinds.ts), so exactly one of the three may be given: a second one is a
 * 400 naming it. Folding happens before validation, so every door shares the same schema.
 */
import { scheduleKind, scheduleTooLong } from '../cron/cron.ts'
import { badRequest } from '../lib/errors.ts'
import { isPlainObject } from './field-schemas.ts'

export const SCHEDULE_KEYS = ['schedule', 'at', 'every'] as const

/** `input` with `at`/`every` turned into `schedule`; a non-object passes through untouched. */
export function foldScheduleKeys(input: unknown): unknown {
  if (!isPlainObject(input)) return input
  const given = SCHEDULE_KEYS.filter((key) => input[key] !== undefined && input[key] !== null)
  if (given.length > 1) {
    throw badRequest(
      `${given[1]}: give only one of schedule, at or every (you gave ${given.join(' and ')})`,
      given[1],
    )
  }
  const key = given[0]
  const { at: _at, every: _every, ...rest } = input
  if (key === undefined || key === 'schedule') return rest
  const value = spell(key, input[key])
  const tooLong = scheduleTooLong(value)
  if (tooLong) throw badRequest(`${key}: ${tooLong}`, key)
  const kind = scheduleKind(`${key} ${value}`)
  if ('error' in kind) throw badRequest(kind.error, key)
  return { ...rest, schedule: `${key} ${value}` }
}

/** The text of an `at`/`every` value; YAML turns `2026-12-24T09:00:00` into a Date (read as UTC). */
function spell(key: 'at' | 'every', value: unknown): string {
  if (typeof value === 'string') return value.trim()
  if (key === 'at' && value instanceof Date && !Number.isNaN(value.getTime())) {
    return value.toISOString().slice(0, 16)
  }
  throw badRequest(
    key === 'at'
      ? 'at: must be a date and time like 2026-12-24T09:00'
      : 'every: must be an interval like 90m',
    key,
  )
}

/** How a job file writes a schedule: `schedule: "0 7 * * *"`, `at: "2026-12-24T09:00"`, `every: "90m"`. */
export function scheduleLine(schedule: string): string {
  const kind = scheduleKind(schedule)
  if (kind.kind === 'at' && 'text' in kind) return `at: ${JSON.stringify(kind.text)}`
  if (kind.kind === 'every') return `every: ${JSON.stringify(schedule.replace(/^every\s+/i, ''))}`
  return `schedule: ${JSON.stringify(schedule)}`
}
