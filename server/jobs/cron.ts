import { Cron } from 'croner'

/**
 * Cron helpers for job schedules: validation with field-level reasons, next-run math under the DST
 * policy of shared/DESIGN.md, and plain-English descriptions for the UI.
 *
 * Schedules are standard 5-field cron (minute hour day-of-month month day-of-week) plus the macros
 * `@hourly @daily @midnight @weekly @monthly @yearly @annually`. Croner's extensions (`L`, `W`, `#`,
 * `?`, `+`, seconds and year fields) are rejected: a schedule should mean the same thing to anyone
 * who knows crontab, and a job file may outlive this library.
 */

export type CronField = 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek'

/** Why a schedule is invalid: the field, the offending value and a message fit to show a person. */
export type CronValidation =
  { ok: true } | { ok: false; field: CronField | 'expression'; value: string; message: string }

type CronError = Extract<CronValidation, { ok: false }>

interface FieldSpec {
  key: CronField
  label: string
  min: number
  max: number
  /** Largest step croner accepts (the size of its value table; day-of-week has 7 slots). */
  maxStep: number
  names?: readonly string[]
}

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
)
const DAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ')
const abbreviate = (names: string[]) => names.map((name) => name.slice(0, 3).toUpperCase())

const FIELDS: readonly FieldSpec[] = [
  { key: 'minute', label: 'minute', min: 0, max: 59, maxStep: 60 },
  { key: 'hour', label: 'hour', min: 0, max: 23, maxStep: 24 },
  { key: 'dayOfMonth', label: 'day-of-month', min: 1, max: 31, maxStep: 31 },
  { key: 'month', label: 'month', min: 1, max: 12, maxStep: 12, names: abbreviate(MONTHS) },
  // 7 is Sunday as well as 0, as in Vixie cron.
  { key: 'dayOfWeek', label: 'day-of-week', min: 0, max: 7, maxStep: 7, names: abbreviate(DAYS) },
]

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
}

/** Days in each month at most (February 29 exists in leap years). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

interface ParsedField {
  raw: string
  /** Sorted, unique; day-of-week 7 is folded into 0. */
  values: number[]
  /**
   * Exactly `*`. Croner ANDs a `*` day field with the other one and ORs two restricted ones; unlike
   * Vixie cron it counts `*\/2` as restricted, and descriptions follow croner, which runs the jobs.
   */
  star: boolean
}

interface ParsedCron {
  /** The 5-field pattern handed to croner (macros expanded). */
  pattern: string
  fields: [ParsedField, ParsedField, ParsedField, ParsedField, ParsedField]
  /** Single minute and single hour, no wildcard or step: croner's (and DESIGN.md's) fixed-time job. */
  fixedTime: boolean
}

type ParseResult = { ok: true; cron: ParsedCron } | CronError

const fail = (field: CronError['field'], value: string, message: string): CronError => ({
  ok: false,
  field,
  value,
  message,
})

// One item of a list: `*`, a value, or a range, each with an optional step. Names are three letters.
const ITEM = /^(\*|\d+|[a-z]{3})(?:-(\d+|[a-z]{3}))?(?:\/(\d+))?$/i

function parseField(spec: FieldSpec, raw: string): ParsedField | CronError {
  const err = (value: string, why: string) => fail(spec.key, value, `${spec.label}: ${why}`)
  const values = new Set<number>()
  for (const item of raw.split(',')) {
    if (item === '') return err(raw, `empty value in list "${raw}"`)
    const match = ITEM.exec(item)
    if (!match) return err(item, badItemReason(spec, item))
    const [, from = '', to, stepText] = match
    const step = stepText === undefined ? 1 : Number(stepText)
    if (step < 1) return err(item, `step ${stepText} in ${item} must be at least 1`)
    if (step > spec.maxStep) return err(item, `step ${stepText} in ${item} is more than ${spec.maxStep}`)
    if (from === '*' && to !== undefined) return err(item, `${item} is not a valid range`)
    // Croner refuses `5/15` by default; crontab(5) documents steps only after a range or `*`.
    if (from !== '*' && to === undefined && stepText !== undefined) {
      return err(
        item,
        `${item} needs a range or * before the step, e.g. ${from}-${spec.max}/${step} or */${step}`,
      )
    }
    // `*` spans the field; day-of-week stops at 6 because 7 is Sunday again.
    let low = spec.min
    let high = spec.key === 'dayOfWeek' ? 6 : spec.max
    if (from !== '*') {
      const bounds: number[] = []
      for (const token of to === undefined ? [from] : [from, to]) {
        const value = toValue(spec, token)
        if (typeof value === 'string') return err(token, value)
        bounds.push(value)
      }
      low = bounds[0] ?? low
      high = bounds[1] ?? low
      if (low > high) return err(item, `${item} runs backwards (${from} is after ${to})`)
    }
    for (let v = low; v <= high; v += step) values.add(spec.key === 'dayOfWeek' && v === 7 ? 0 : v)
  }
  return { raw, values: [...values].sort((a, b) => a - b), star: raw === '*' }
}

/** The number a token stands for, or why it stands for none. */
function toValue(spec: FieldSpec, token: string): number | string {
  let value: number
  if (/^\d+$/.test(token)) value = Number(token)
  else {
    const index = spec.names?.indexOf(token.toUpperCase()) ?? -1
    const names = spec.names ? ` or a name (${spec.names[0]}–${spec.names.at(-1)})` : ''
    if (index < 0) return `${token} is not a number${names}`
    value = index + spec.min
  }
  if (value < spec.min || value > spec.max) return `${token} is out of range (${spec.min}–${spec.max})`
  return value
}

function badItemReason(spec: FieldSpec, item: string): string {
  if (item.includes('?')) {
    return `${item} uses ?, a croner and Quartz extension that standard cron does not support; use *`
  }
  if (spec.key === 'dayOfMonth' && /[LW]/i.test(item)) {
    return `${item} uses L or W (last day, nearest weekday): croner extensions that standard cron does not support`
  }
  if (spec.key === 'dayOfWeek' && /[L#+]/i.test(item)) {
    return `${item} uses L, # or + (last or nth weekday, AND logic): croner extensions that standard cron does not support`
  }
  const hint = spec.names ? `, ${spec.names[0]}–${spec.names.at(-1)}` : ''
  return `${item} is not valid (use ${spec.min}–${spec.max}${hint}, *, ranges like 1-5, lists like 1,3 or steps like */5)`
}

function parseCron(expr: unknown): ParseResult {
  if (typeof expr !== 'string') return fail('expression', String(expr), 'schedule must be a string')
  const trimmed = expr.trim()
  if (trimmed === '') return fail('expression', expr, 'schedule is empty')
  let pattern = trimmed
  if (trimmed.startsWith('@')) {
    const name = trimmed.toLowerCase()
    if (name === '@reboot') {
      return fail('expression', trimmed, '@reboot is not supported: jobs run on a schedule, not at start-up')
    }
    const macro = MACROS[name]
    if (!macro) {
      return fail(
        'expression',
        trimmed,
        `unknown macro ${trimmed} (use @hourly, @daily, @weekly, @monthly or @yearly)`,
      )
    }
    pattern = macro
  }
  const parts = pattern.split(/\s+/)
  if (parts.length !== 5) {
    const extra =
      parts.length === 6 || parts.length === 7 ? '; seconds and year fields are not supported' : ''
    const message = `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}${extra}`
    return fail('expression', trimmed, message)
  }
  const fields: ParsedField[] = []
  for (const [i, spec] of FIELDS.entries()) {
    const field = parseField(spec, parts[i] ?? '')
    if ('ok' in field) return field
    fields.push(field)
  }
  const [minute, hour, dom, month, dow] = fields as ParsedCron['fields']
  // A schedule that can never fire is a mistake worth naming (croner would just never find a run).
  // With a restricted day-of-week the days are ORed, so weekday matches still fire.
  if (dow.star && !dom.star) {
    const longest = Math.max(...month.values.map((m) => MONTH_DAYS[m - 1] ?? 31))
    if ((dom.values[0] ?? 1) > longest) {
      const names = month.values.map((m) => MONTHS[m - 1]).join(' or ')
      return fail('dayOfMonth', dom.raw, `day-of-month: ${dom.raw} never occurs in ${names}`)
    }
  }
  const single = (f: ParsedField) => f.values.length === 1 && !/[*/]/.test(f.raw)
  const cron: ParsedCron = {
    pattern: parts.join(' '),
    fields: [minute, hour, dom, month, dow],
    fixedTime: single(minute) && single(hour),
  }
  // Croner is the engine; if it ever disagrees with this parser, say so here rather than in the scheduler.
  try {
    new Cron(cron.pattern, { mode: '5-part', utcOffset: 0, paused: true })
  } catch (error) {
    return fail('expression', trimmed, error instanceof Error ? error.message : String(error))
  }
  return { ok: true, cron }
}

/**
 * Check a schedule and say what is wrong with it, naming the field and the value
 * (e.g. `hour: 25 is out of range (0–23)`).
 */
export function validateCron(expr: string): CronValidation {
  const parsed = parseCron(expr)
  return parsed.ok ? { ok: true } : parsed
}

/** True when `expr` is a standard 5-field cron expression or a supported macro. */
export function isValidCron(expr: string): boolean {
  return parseCron(expr).ok
}

/**
 * True for an IANA time zone name the runtime knows (`UTC`, `Europe/Berlin`, links such as
 * `US/Pacific`). Offsets such as `+05:00` are rejected even where newer runtimes accept them: they
 * have no DST rules, so a schedule in one silently drifts from the place the person meant.
 */
export function isValidTimezone(zone: string): boolean {
  return typeof zone === 'string' && /^[A-Za-z]/.test(zone) && formatterFor(zone) !== null
}

// Building an Intl.DateTimeFormat costs about 0.4 ms, so keep one per valid zone (a bounded set).
const formatters = new Map<string, Intl.DateTimeFormat>()
const WALL_CLOCK: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
}

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let format = formatters.get(zone)
  if (format) return format
  try {
    format = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: zone })
  } catch {
    return null
  }
  formatters.set(zone, format)
  return format
}

// ---------------------------------------------------------------------------------------------
// Next runs and the DST policy
// ---------------------------------------------------------------------------------------------

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
 * (default UTC), following the DST policy of shared/DESIGN.md:
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
  if (!isValidTimezone(timezone)) throw new RangeError(`Unknown timezone "${timezone}"`)
  const cron = parseOrThrow(expr)
  if (cron.fixedTime) return fixedTimeRuns(cron.pattern, timezone, after.getTime(), count)
  // Croner 11's own DST handling is the policy for interval jobs (checked by the tests).
  return new Cron(cron.pattern, { mode: '5-part', timezone, paused: true }).nextRuns(count, after)
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
  const wallCron = new Cron(pattern, { mode: '5-part', utcOffset: 0, paused: true })
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

/** The wall-clock time in `zone` at `instant`, written as if it were a UTC timestamp. */
function wallClock(zone: string, instant: number): number {
  const format = formatterFor(zone)
  if (!format) throw new RangeError(`Unknown timezone "${zone}"`)
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {}
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value)
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = part
  return Date.UTC(year, month - 1, day, hour, minute, second)
}

/** UTC offset of `zone` at `instant`, in milliseconds. */
const offsetAt = (zone: string, instant: number) =>
  wallClock(zone, instant) - Math.floor(instant / SECOND) * SECOND

/** The instant a wall-clock time runs at: its first occurrence, or the end of the gap it falls in. */
function placeWallTime(zone: string, wall: number): number {
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

// ---------------------------------------------------------------------------------------------
// Plain English
// ---------------------------------------------------------------------------------------------

/**
 * A schedule in plain English for the UI, e.g. "Every weekday at 07:00 (Europe/Berlin)". Times are
 * 24-hour wall-clock times in the job's zone. Shapes it cannot phrase well come back as the
 * expression itself ("Cron: 5,7 *\/3 2-9/2 * 1") rather than as a guess.
 *
 * Decisions: the zone is appended whenever `timezone` is given, UTC included, so a reader never
 * wonders which clock is meant (omit it to leave the zone out); an unknown zone is flagged in its
 * place; an invalid schedule gives "Invalid schedule: <reason>" instead of throwing, since this
 * feeds labels that must render whatever was typed.
 */
export function describeCron(expr: string, options: { timezone?: string } = {}): string {
  const parsed = parseCron(expr)
  if (!parsed.ok) return `Invalid schedule: ${parsed.message}`
  const text = phrase(parsed.cron) ?? `Cron: ${parsed.cron.pattern}`
  const { timezone } = options
  if (timezone === undefined) return text
  return isValidTimezone(timezone) ? `${text} (${timezone})` : `${text} (unknown timezone "${timezone}")`
}

/** Either clock times ("09:00 and 17:00") or a sentence-opening interval ("Every 5 minutes"). */
type TimePhrase = { times: string } | { every: string }

function phrase(cron: ParsedCron): string | null {
  const [minute, hour, dom, month, dow] = cron.fields
  const time = timePhrase(minute.values, hour.values)
  if (!time) return null
  // As croner matches days: a `*` day field defers to the other one and two restricted ones are
  // ORed, so a restricted field that lists every day makes it every day.
  const domAll = dom.values.length === 31
  const dowAll = dow.values.length === 7
  const either = dom.star || dow.star
  const domDays = dom.star || domAll || (!either && dowAll) ? null : dom.values
  const dowDays = dow.star || dowAll || (!either && domAll) ? null : dow.values
  const months = month.values.length === 12 ? null : month.values

  if (domDays) {
    // Both day fields restricted (runs on either): with a month limit as well, no short sentence is clear.
    if (dowDays && months) return null
    const on = daysOfMonth(domDays, months)
    if (on === null) return null
    const also = dowDays ? ` and ${weekdaysPlural(dowDays)}` : ''
    return 'times' in time ? `At ${time.times} on ${on}${also}` : `${time.every} on ${on}${also}`
  }
  const inMonths = months ? ` ${monthsPhrase(months)}` : ''
  if (dowDays) {
    const text =
      'times' in time
        ? `Every ${weekdayNoun(dowDays)} at ${time.times}`
        : `${time.every} ${weekdaysPlural(dowDays)}`
    return text + inMonths
  }
  return ('times' in time ? `Every day at ${time.times}` : time.every) + inMonths
}

function timePhrase(minutes: number[], hours: number[]): TimePhrase | null {
  const [m0 = 0] = minutes
  const [h0 = 0] = hours
  const hLast = hours.at(-1) ?? h0
  const allHours = hours.length === 24
  const minuteStep = minutes.length === 60 ? 1 : cycleStep(minutes, 60)
  if (minuteStep !== null) {
    const every = minuteStep === 1 ? 'Every minute' : `Every ${minuteStep} minutes`
    if (allHours) return { every }
    return isRun(hours) ? { every: `${every} between ${clock(h0, 0)} and ${clock(hLast, 59)}` } : null
  }
  if (minutes.length === 1) {
    const past = m0 === 0 ? '' : ` at :${pad(m0)}`
    if (allHours) return { every: `Every hour${past}` }
    const hourStep = cycleStep(hours, 24)
    if (hourStep !== null) return { every: `Every ${hourStep} hours${past}` }
  }
  if (!allHours && minutes.length * hours.length <= 4) {
    return { times: list(hours.flatMap((h) => minutes.map((m) => clock(h, m)))) }
  }
  const step = minutes.length === 1 ? progression(hours) : null
  if (step !== null) {
    const every = step === 1 ? 'Every hour' : `Every ${step} hours`
    return { every: `${every} from ${clock(h0, m0)} to ${clock(hLast, m0)}` }
  }
  const past = list(minutes.map((m) => `:${pad(m)}`))
  return allHours && minutes.length <= 4 ? { every: `Every hour at ${past}` } : null
}

/** n when `values` is exactly 0, n, 2n, … through a whole cycle of `size` (so the gaps are even). */
function cycleStep(values: number[], size: number): number | null {
  const step = values[1]
  if (values[0] !== 0 || step === undefined || size % step !== 0 || values.length !== size / step) return null
  return values.every((v, i) => v === i * step) ? step : null
}

/** The common difference of three or more evenly spaced values. */
function progression(values: number[]): number | null {
  const [first, second] = values
  if (values.length < 3 || first === undefined || second === undefined) return null
  const step = second - first
  return values.every((v, i) => v === first + i * step) ? step : null
}

const isRun = (values: number[]) => values.every((v, i) => v === (values[0] ?? 0) + i)
const pad = (n: number) => String(n).padStart(2, '0')
const clock = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** "A to C" for three or more in a row, else "A, B and C" (null past six, which reads worse than cron). */
function span(values: number[], name: (v: number) => string): string | null {
  const first = values[0] ?? 0
  if (values.length >= 3 && progression(values) === 1) return `${name(first)} to ${name(values.at(-1) ?? 0)}`
  return values.length <= 6 ? list(values.map(name)) : null
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}

const monthName = (m: number) => MONTHS[m - 1] ?? ''
// Weeks read Monday first; cron counts Sunday as 0, so Sunday sorts last as 7.
const mondayFirst = (days: number[]) => days.map((d) => (d === 0 ? 7 : d)).sort((a, b) => a - b)
const dayName = (d: number) => DAYS[d % 7] ?? ''
const isWeekdays = (days: number[]) => days.join() === '1,2,3,4,5'

/** Singular, after "Every": "weekday", "Monday and Friday", "Monday to Thursday". */
function weekdayNoun(days: number[]): string {
  return isWeekdays(days) ? 'weekday' : (span(mondayFirst(days), dayName) ?? '')
}

/** With its preposition: "on weekdays", "on weekends", "on Mondays and Fridays", "from Tuesday to Thursday". */
function weekdaysPlural(days: number[]): string {
  if (isWeekdays(days)) return 'on weekdays'
  if (days.join() === '0,6') return 'on weekends'
  const ordered = mondayFirst(days)
  if (ordered.length >= 3 && progression(ordered) === 1) return `from ${span(ordered, dayName)}`
  return `on ${list(ordered.map((d) => `${dayName(d)}s`))}`
}

/** "in January and July", "from June to August". */
function monthsPhrase(months: number[]): string {
  const text = span(months, monthName) ?? list(months.map(monthName))
  return months.length >= 3 && progression(months) === 1 ? `from ${text}` : `in ${text}`
}

/** "the 1st of every month", "1 January", "the 1st and 15th of March, June, September and December". */
function daysOfMonth(days: number[], months: number[] | null): string | null {
  const which = span(days, ordinal)
  if (which === null) return null
  if (months === null) return `the ${which} of every month`
  if (days.length === 1 && months.length === 1) return `${days[0]} ${monthName(months[0] ?? 1)}`
  if (months.length >= 3 && progression(months) === 1)
    return `the ${which} of every month ${monthsPhrase(months)}`
  return `the ${which} of ${list(months.map(monthName))}`
}
