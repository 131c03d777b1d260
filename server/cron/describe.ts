import { BoundedCache } from '../lib/lru.ts'
import { DAYS, MONTHS } from './fields.ts'
import { parseCron, type ParsedCron } from './parse.ts'
import { isValidTimezone } from './zones.ts'

/** Plain English for schedules: {@link describeCron} and the phrasing helpers behind it. */

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
  const text =
    typeof expr === 'string' && expr.length <= 200 ? phrases.getOrCreate(expr, describe) : describe(expr)
  const { timezone } = options
  if (timezone === undefined) return text
  return isValidTimezone(timezone) ? `${text} (${timezone})` : `${text} (unknown timezone "${timezone}")`
}

// Every job view describes its schedule: phrase each distinct expression once (bounded: user input).
const phrases = new BoundedCache<string, string>(5_000)

function describe(expr: string): string {
  const parsed = parseCron(expr)
  if (!parsed.ok) return `Invalid schedule: ${parsed.message}`
  return phrase(parsed.cron) ?? `Cron: ${parsed.cron.pattern}`
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
