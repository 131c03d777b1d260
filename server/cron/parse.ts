import { Cron } from 'croner'
import { BoundedCache } from '../lib/lru.ts'
import { FIELDS, MACROS, MONTH_DAYS, MONTHS, type CronField, type FieldSpec } from './fields.ts'

/**
 * Parsing and validation: a schedule becomes the values of its five fields, or a reason that names
 * the field and the value at fault. Croner's extensions are refused here, for the reason given in
 * ../cron.ts.
 */

/** Why a schedule is invalid: the field, the offending value and a message fit to show a person. */
export type CronValidation =
  { ok: true } | { ok: false; field: CronField | 'expression'; value: string; message: string }

type CronError = Extract<CronValidation, { ok: false }>

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

export interface ParsedCron {
  /** The 5-field pattern handed to croner (macros expanded). */
  pattern: string
  fields: [ParsedField, ParsedField, ParsedField, ParsedField, ParsedField]
  /** Single minute and single hour, no wildcard or step: croner's (and docs/architecture.md's) fixed-time job. */
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

// Parsing (ours and croner's check) is the costly part of describing or placing a schedule, and
// a deployment has few distinct schedules: parse each once. Bounded, since the strings are user input.
const parsedSchedules = new BoundedCache<string, ParseResult>(5_000)

/**
 * A schedule's fields and croner pattern, or why it is invalid. Never throws. Results are shared
 * (cached per expression): treat them as read-only.
 */
export function parseCron(expr: unknown): ParseResult {
  if (typeof expr !== 'string') return fail('expression', String(expr), 'schedule must be a string')
  // Real schedules are short; an odd long string is parsed without taking cache room.
  if (expr.length > 200) return parseUncached(expr)
  return parsedSchedules.getOrCreate(expr, parseUncached)
}

/** How many parsed schedules are cached (for the test of the bound). */
export const parsedScheduleCount = () => parsedSchedules.size

function parseUncached(expr: string): ParseResult {
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
