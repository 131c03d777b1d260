/**
 * The five cron fields, their ranges and names, and the macros that stand for whole patterns. The
 * parser checks against these tables; the plain-English descriptions spell out the same names.
 */

export type CronField = 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek'

export interface FieldSpec {
  key: CronField
  label: string
  min: number
  max: number
  /** Largest step croner accepts (the size of its value table; day-of-week has 7 slots). */
  maxStep: number
  names?: readonly string[]
}

export const MONTHS =
  'January February March April May June July August September October November December'.split(' ')
export const DAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ')
const abbreviate = (names: string[]) => names.map((name) => name.slice(0, 3).toUpperCase())

export const FIELDS: readonly FieldSpec[] = [
  { key: 'minute', label: 'minute', min: 0, max: 59, maxStep: 60 },
  { key: 'hour', label: 'hour', min: 0, max: 23, maxStep: 24 },
  { key: 'dayOfMonth', label: 'day-of-month', min: 1, max: 31, maxStep: 31 },
  { key: 'month', label: 'month', min: 1, max: 12, maxStep: 12, names: abbreviate(MONTHS) },
  // 7 is Sunday as well as 0, as in Vixie cron.
  { key: 'dayOfWeek', label: 'day-of-week', min: 0, max: 7, maxStep: 7, names: abbreviate(DAYS) },
]

export const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
}

/** Days in each month at most (February 29 exists in leap years). */
export const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const
