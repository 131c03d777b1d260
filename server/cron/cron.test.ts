import { Cron } from 'croner'
import { describe, expect, it } from 'vitest'
import {
  instantOfWallTime,
  isValidCron,
  isValidTimezone,
  nextRun,
  nextRuns,
  validateCron,
  wallClock,
} from './cron.ts'

/** Run instants as short ISO strings ('2026-03-08T07:00Z'), so expectations read as a timetable. */
function runs(expr: string, timezone: string | undefined, after: string, count?: number): string[] {
  return nextRuns(expr, { after: new Date(after), timezone, count }).map((d) =>
    d.toISOString().replace(':00.000Z', 'Z'),
  )
}

describe('validateCron', () => {
  it.each([
    ['0 25 * * *', 'hour', '25', 'hour: 25 is out of range (0–23)'],
    ['60 * * * *', 'minute', '60', 'minute: 60 is out of range (0–59)'],
    ['5-70 * * * *', 'minute', '70', 'minute: 70 is out of range (0–59)'],
    ['* * 0 * *', 'dayOfMonth', '0', 'day-of-month: 0 is out of range (1–31)'],
    ['* * 32 * *', 'dayOfMonth', '32', 'day-of-month: 32 is out of range (1–31)'],
    ['* * * 13 *', 'month', '13', 'month: 13 is out of range (1–12)'],
    ['* * * * 8', 'dayOfWeek', '8', 'day-of-week: 8 is out of range (0–7)'],
    ['* * * FOO *', 'month', 'FOO', 'month: FOO is not a number or a name (JAN–DEC)'],
    ['* * * * FUN', 'dayOfWeek', 'FUN', 'day-of-week: FUN is not a number or a name (SUN–SAT)'],
    ['JAN * * * *', 'minute', 'JAN', 'minute: JAN is not a number'],
    ['0 22-2 * * *', 'hour', '22-2', 'hour: 22-2 runs backwards (22 is after 2)'],
    ['0 9 * * FRI-MON', 'dayOfWeek', 'FRI-MON', 'day-of-week: FRI-MON runs backwards (FRI is after MON)'],
    ['*/0 * * * *', 'minute', '*/0', 'minute: step 0 in */0 must be at least 1'],
    ['*/61 * * * *', 'minute', '*/61', 'minute: step 61 in */61 is more than 60'],
    ['0 */25 * * *', 'hour', '*/25', 'hour: step 25 in */25 is more than 24'],
    [
      '5/15 * * * *',
      'minute',
      '5/15',
      'minute: 5/15 needs a range or * before the step, e.g. 5-59/15 or */15',
    ],
    ['1,,2 * * * *', 'minute', '1,,2', 'minute: empty value in list "1,,2"'],
    ['*-5 * * * *', 'minute', '*-5', 'minute: *-5 is not a valid range'],
    ['0 9 * * Monday', 'dayOfWeek', 'Monday', 'day-of-week: Monday is not valid'],
    ['0 0 30 2 *', 'dayOfMonth', '30', 'day-of-month: 30 never occurs in February'],
    ['0 0 31 4,6 *', 'dayOfMonth', '31', 'day-of-month: 31 never occurs in April or June'],
  ])('%s is rejected, naming %s', (expr, field, value, message) => {
    const result = validateCron(expr)
    expect(result).toMatchObject({ ok: false, field, value })
    expect(result.ok || result.message).toContain(message)
  })

  // Decision: croner's extensions are rejected so a schedule means what crontab(5) says it means.
  it.each([
    ['* * L * *', 'dayOfMonth', 'L'],
    ['* * LW * *', 'dayOfMonth', 'LW'],
    ['* * 15W * *', 'dayOfMonth', '15W'],
    ['* * * * 5L', 'dayOfWeek', '5L'],
    ['* * * * FRI#2', 'dayOfWeek', 'FRI#2'],
    ['* * * * +MON', 'dayOfWeek', '+MON'],
    ['* * ? * *', 'dayOfMonth', '?'],
  ])('%s (a croner extension) is rejected', (expr, field, value) => {
    expect(() => new Cron(expr, { mode: '5-part', paused: true })).not.toThrow()
    const result = validateCron(expr)
    expect(result).toMatchObject({ ok: false, field, value })
    expect(result.ok || result.message).toMatch(
      /extension that standard cron does not support|extensions that/,
    )
  })

  it.each([
    ['* * * * * *', 6],
    ['0 0 7 * * * 2026', 7],
  ])('%s (seconds or years) is rejected with the field count', (expr, count) => {
    expect(validateCron(expr)).toEqual({
      ok: false,
      field: 'expression',
      value: expr,
      message: `expected 5 fields (minute hour day-of-month month day-of-week), got ${count}; seconds and year fields are not supported`,
    })
  })

  it.each([
    ['', 'schedule is empty'],
    ['   ', 'schedule is empty'],
    ['* * * *', 'expected 5 fields (minute hour day-of-month month day-of-week), got 4'],
    ['@reboot', '@reboot is not supported'],
    ['@fortnightly', 'unknown macro @fortnightly'],
    ['@daily 7', 'unknown macro @daily 7'],
  ])('%j is rejected as a whole expression', (expr, message) => {
    const result = validateCron(expr)
    expect(result).toMatchObject({ ok: false, field: 'expression' })
    expect(result.ok || result.message).toContain(message)
  })

  it('rejects a non-string schedule (YAML reads `schedule: 5` as a number)', () => {
    expect(validateCron(5 as unknown as string)).toMatchObject({ ok: false, field: 'expression' })
  })

  it.each([
    '* * * * *',
    '0 7 * * 1-5',
    '0 9 * * MON-FRI',
    '0 9 * jan-mar mon,wed',
    '00 07 * * *',
    '0-59/15 1-5/2 * * *',
    '*/60 * * * *',
    '0 0 * * 7',
    '0 0 29 2 *',
    '0 0 31 * *',
    '0 0 30 2 1',
    '  0  7 * *\t*  ',
    '@hourly',
    '@daily',
    '@midnight',
    '@weekly',
    '@monthly',
    '@yearly',
    '@annually',
    '@Daily',
  ])('accepts %j', (expr) => {
    expect(validateCron(expr)).toEqual({ ok: true })
    expect(isValidCron(expr)).toBe(true)
  })

  it('isValidCron agrees with validateCron on rejections', () => {
    expect(isValidCron('0 25 * * *')).toBe(false)
    expect(isValidCron('* * * * * *')).toBe(false)
    expect(isValidCron('')).toBe(false)
  })
})

describe('isValidTimezone', () => {
  it.each([
    'UTC',
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Pacific/Apia',
    'Etc/GMT+5',
    'US/Pacific',
  ])('accepts %s', (zone) => expect(isValidTimezone(zone)).toBe(true))

  it.each(['', ' ', 'Mars/Olympus_Mons', 'Europe/Berlín', 'not a zone', ' UTC', '+05:00', '-0330', 'Z'])(
    'rejects %j',
    (zone) => expect(isValidTimezone(zone)).toBe(false),
  )
})

describe('wall clocks of early years', () => {
  // The calendar places any day from year 1 on, and its first day may begin in 1 BC (year 0), which
  // Intl writes as year 1; Date.UTC reads years 0–99 as 1900–1999.
  it.each([
    ['UTC', '0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'],
    ['Europe/Berlin', '0001-01-01T00:00:00Z', '0001-01-01T00:53:28.000Z'],
    ['Asia/Tokyo', '0000-12-31T12:00:00Z', '0000-12-31T21:18:59.000Z'],
    ['America/New_York', '0001-01-01T00:00:00Z', '0000-12-31T19:03:58.000Z'],
    ['Pacific/Auckland', '2026-12-31T12:00:00Z', '2027-01-01T01:00:00.000Z'],
  ])('%s at %s reads %s', (zone, instant, wall) => {
    expect(new Date(wallClock(zone, Date.parse(instant))).toISOString()).toBe(wall)
    expect(instantOfWallTime(zone, Date.parse(wall))).toBe(Date.parse(instant))
  })
})

describe('nextRuns', () => {
  it('returns 5 runs by default, in order, in UTC when no zone is given', () => {
    expect(runs('0 9 * * *', undefined, '2026-05-01T10:00Z')).toEqual([
      '2026-05-02T09:00Z',
      '2026-05-03T09:00Z',
      '2026-05-04T09:00Z',
      '2026-05-05T09:00Z',
      '2026-05-06T09:00Z',
    ])
  })

  it('returns exactly count runs, strictly increasing', () => {
    for (const expr of ['*/7 * * * *', '0 7 * * 1-5', '0 0 1 * *']) {
      const dates = nextRuns(expr, {
        after: new Date('2026-01-01T00:00Z'),
        timezone: 'Europe/Berlin',
        count: 100,
      })
      expect(dates).toHaveLength(100)
      for (const [i, date] of dates.entries()) {
        if (i > 0) expect(date.getTime()).toBeGreaterThan(dates[i - 1]!.getTime())
      }
    }
  })

  it('is strictly after `after`, to the millisecond', () => {
    expect(runs('0 12 * * *', 'UTC', '2026-01-01T12:00:00.000Z', 1)).toEqual(['2026-01-02T12:00Z'])
    expect(runs('0 12 * * *', 'UTC', '2026-01-01T11:59:59.999Z', 1)).toEqual(['2026-01-01T12:00Z'])
    expect(runs('*/5 * * * *', 'UTC', '2026-01-01T12:00:00.000Z', 1)).toEqual(['2026-01-01T12:05Z'])
    expect(runs('*/5 * * * *', 'UTC', '2026-01-01T12:04:59.999Z', 1)).toEqual(['2026-01-01T12:05Z'])
  })

  it('reads times in the given zone', () => {
    expect(runs('0 9 * * *', 'Europe/Berlin', '2026-01-15T00:00Z', 1)).toEqual(['2026-01-15T08:00Z'])
    expect(runs('0 9 * * *', 'Europe/Berlin', '2026-07-15T00:00Z', 1)).toEqual(['2026-07-15T07:00Z'])
  })

  it.each([
    ['@hourly', '0 * * * *'],
    ['@daily', '0 0 * * *'],
    ['@midnight', '0 0 * * *'],
    ['@weekly', '0 0 * * 0'],
    ['@monthly', '0 0 1 * *'],
    ['@yearly', '0 0 1 1 *'],
    ['@annually', '0 0 1 1 *'],
  ])('%s runs as %s', (macro, pattern) => {
    const after = '2026-02-10T10:30Z'
    expect(runs(macro, 'Europe/Berlin', after, 3)).toEqual(runs(pattern, 'Europe/Berlin', after, 3))
  })

  it('ORs a restricted day-of-month with a restricted day-of-week, as cron does', () => {
    // 2026-03-01 is a Sunday: the 1st of the month or any Monday.
    expect(runs('0 0 1 * 1', 'UTC', '2026-03-01T00:00Z', 7)).toEqual([
      '2026-03-02T00:00Z',
      '2026-03-09T00:00Z',
      '2026-03-16T00:00Z',
      '2026-03-23T00:00Z',
      '2026-03-30T00:00Z',
      '2026-04-01T00:00Z',
      '2026-04-06T00:00Z',
    ])
  })

  it('treats day-of-week 7 as Sunday and finds 29 February in leap years', () => {
    expect(runs('0 0 * * 7', 'UTC', '2026-03-01T00:00Z', 2)).toEqual(
      runs('0 0 * * 0', 'UTC', '2026-03-01T00:00Z', 2),
    )
    expect(runs('0 0 29 2 *', 'UTC', '2026-01-01T00:00Z', 2)).toEqual([
      '2028-02-29T00:00Z',
      '2032-02-29T00:00Z',
    ])
  })

  // The calendar passes its window's end: a rare schedule then costs the window, not decades.
  it.each([
    ['an interval job', '0 */23 29 2 *', 'Europe/Berlin'],
    ['a fixed-time job', '0 0 29 2 *', 'America/New_York'],
    ['an every job', 'every 30d', 'UTC'],
  ])('stops before `until` for %s, the runs before it unchanged', (_, expr, timezone) => {
    const after = new Date('2026-01-01T00:00Z')
    const all = nextRuns(expr, { after, timezone, count: 5 })
    const until = all[2]!
    expect(nextRuns(expr, { after, timezone, count: 5, until })).toEqual(all.slice(0, 2))
    expect(nextRuns(expr, { after, timezone, count: 5, until: new Date(until.getTime() + 1) })).toEqual(
      all.slice(0, 3),
    )
    expect(nextRuns(expr, { after, timezone, count: 5, until: after })).toEqual([])
  })

  it('throws on bad input instead of guessing', () => {
    const after = new Date('2026-01-01T00:00Z')
    expect(() => nextRuns('0 25 * * *', { after })).toThrow(TypeError)
    expect(() => nextRuns('0 25 * * *', { after })).toThrow('hour: 25 is out of range (0–23)')
    expect(() => nextRuns('* * * * *', { after, timezone: 'Mars/Olympus_Mons' })).toThrow(RangeError)
    expect(() => nextRuns('* * * * *', { after: new Date('nope') })).toThrow(RangeError)
    expect(() => nextRuns('* * * * *', { after, count: 0 })).toThrow(RangeError)
    expect(() => nextRuns('* * * * *', { after, count: 101 })).toThrow(RangeError)
    expect(() => nextRuns('* * * * *', { after, count: 2.5 })).toThrow(RangeError)
    expect(() => nextRuns('* * * * *', { after, until: new Date('nope') })).toThrow(RangeError)
  })
})

describe('nextRun', () => {
  it('is the first of nextRuns', () => {
    const after = new Date('2026-06-01T12:00Z')
    expect(nextRun('0 7 * * 1-5', { after, timezone: 'Europe/Berlin' })).toEqual(
      nextRuns('0 7 * * 1-5', { after, timezone: 'Europe/Berlin', count: 1 })[0],
    )
    expect(nextRun('30 6 * * *', { after })?.toISOString()).toBe('2026-06-02T06:30:00.000Z')
  })
})

/** Offset of `zone` at an instant, e.g. '-04:00'. ICU writes a zero offset as plain '+00:00'. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>()
function offset(zone: string, instant: string | number): string {
  let format = offsetFormats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    offsetFormats.set(zone, format)
  }
  const name = format.formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value
  return name === 'GMT' ? '+00:00' : (name?.replace('GMT', '') ?? '')
}

describe('DST policy at real transitions', () => {
  // The expectations below assume these transitions; if the runtime's tz data disagrees, this
  // fails first and says so, rather than the policy tests failing mysteriously.
  it.each([
    ['America/New_York', '2026-03-08T07:00Z', '-05:00', '-04:00'],
    ['America/New_York', '2026-11-01T06:00Z', '-04:00', '-05:00'],
    ['Europe/London', '2026-03-29T01:00Z', '+00:00', '+01:00'],
    ['Europe/London', '2026-10-25T01:00Z', '+01:00', '+00:00'],
    ['Australia/Lord_Howe', '2026-04-04T15:00Z', '+11:00', '+10:30'],
    ['Australia/Lord_Howe', '2026-10-03T15:30Z', '+10:30', '+11:00'],
    ['America/Santiago', '2026-04-05T03:00Z', '-03:00', '-04:00'],
    ['America/Santiago', '2026-09-06T04:00Z', '-04:00', '-03:00'],
    ['America/Nuuk', '2026-03-29T01:00Z', '-02:00', '-01:00'],
    ['America/Nuuk', '2026-10-25T01:00Z', '-01:00', '-02:00'],
  ])('%s changes offset at %s', (zone, instant, before, after) => {
    const minuteBefore = new Date(new Date(instant).getTime() - 60_000).toISOString()
    expect(offset(zone, minuteBefore)).toBe(before)
    expect(offset(zone, instant)).toBe(after)
  })

  it.each([
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00Z).
    [
      'America/New_York',
      'fixed time in the gap runs once when it ends',
      '30 2 * * *',
      '2026-03-07T12:00Z',
      ['2026-03-08T07:00Z', '2026-03-09T06:30Z'],
    ],
    [
      'America/New_York',
      'fixed time at the start of the gap',
      '0 2 * * *',
      '2026-03-07T12:00Z',
      ['2026-03-08T07:00Z', '2026-03-09T06:00Z'],
    ],
    [
      'America/New_York',
      'fixed gap run is not repeated after it fires',
      '30 2 * * *',
      '2026-03-08T07:00Z',
      ['2026-03-09T06:30Z'],
    ],
    [
      'America/New_York',
      'interval skips the missing times',
      '*/30 * * * *',
      '2026-03-08T05:45Z',
      ['2026-03-08T06:00Z', '2026-03-08T06:30Z', '2026-03-08T07:00Z', '2026-03-08T07:30Z'],
    ],
    [
      'America/New_York',
      'hour list is an interval job: 02:30 is skipped',
      '30 1,2 * * *',
      '2026-03-08T00:00Z',
      ['2026-03-08T06:30Z', '2026-03-09T05:30Z', '2026-03-09T06:30Z'],
    ],
    // New York, 2026-11-01: 02:00 EDT falls back to 01:00 EST (06:00Z); 01:00–01:59 happens twice.
    [
      'America/New_York',
      'fixed repeated time runs once, on the first pass',
      '30 1 * * *',
      '2026-10-31T12:00Z',
      ['2026-11-01T05:30Z', '2026-11-02T06:30Z'],
    ],
    [
      'America/New_York',
      'fixed job does not run again on the second pass',
      '30 1 * * *',
      '2026-11-01T05:45Z',
      ['2026-11-02T06:30Z'],
    ],
    [
      'America/New_York',
      'a one-value range is still a fixed time',
      '30 1-1 * * *',
      '2026-10-31T12:00Z',
      ['2026-11-01T05:30Z', '2026-11-02T06:30Z'],
    ],
    [
      'America/New_York',
      'interval runs on both passes',
      '*/30 1 * * *',
      '2026-11-01T04:45Z',
      [
        '2026-11-01T05:00Z',
        '2026-11-01T05:30Z',
        '2026-11-01T06:00Z',
        '2026-11-01T06:30Z',
        '2026-11-02T06:00Z',
      ],
    ],
    [
      'America/New_York',
      'hourly job follows real time',
      '30 * * * *',
      '2026-11-01T04:45Z',
      ['2026-11-01T05:30Z', '2026-11-01T06:30Z', '2026-11-01T07:30Z'],
    ],
    [
      'America/New_York',
      'hour list runs 01:30 on both passes',
      '30 1,2 * * *',
      '2026-11-01T04:45Z',
      ['2026-11-01T05:30Z', '2026-11-01T06:30Z', '2026-11-01T07:30Z', '2026-11-02T06:30Z'],
    ],
    // London, 2026-03-29: 01:00 GMT jumps to 02:00 BST (01:00Z).
    [
      'Europe/London',
      'fixed time in the gap runs at 02:00 BST',
      '30 1 * * *',
      '2026-03-28T12:00Z',
      ['2026-03-29T01:00Z', '2026-03-30T00:30Z'],
    ],
    [
      'Europe/London',
      'interval in the missing hour skips that day',
      '*/30 1 * * *',
      '2026-03-28T12:00Z',
      ['2026-03-30T00:00Z', '2026-03-30T00:30Z'],
    ],
    // London, 2026-10-25: 02:00 BST falls back to 01:00 GMT (01:00Z).
    [
      'Europe/London',
      'fixed repeated time runs on the BST pass',
      '30 1 * * *',
      '2026-10-24T12:00Z',
      ['2026-10-25T00:30Z', '2026-10-26T01:30Z'],
    ],
    [
      'Europe/London',
      'interval runs on both passes',
      '*/30 1 * * *',
      '2026-10-24T12:00Z',
      [
        '2026-10-25T00:00Z',
        '2026-10-25T00:30Z',
        '2026-10-25T01:00Z',
        '2026-10-25T01:30Z',
        '2026-10-26T01:00Z',
      ],
    ],
    // Lord Howe, 2026-10-04: 02:00 (+10:30) jumps half an hour to 02:30 (+11) at 15:30Z the day before.
    [
      'Australia/Lord_Howe',
      'fixed time in the half-hour gap runs at 02:30',
      '15 2 * * *',
      '2026-10-03T12:00Z',
      ['2026-10-03T15:30Z', '2026-10-04T15:15Z'],
    ],
    [
      'Australia/Lord_Howe',
      'fixed time after the gap is untouched',
      '45 2 * * *',
      '2026-10-03T12:00Z',
      ['2026-10-03T15:45Z', '2026-10-04T15:45Z'],
    ],
    [
      'Australia/Lord_Howe',
      'interval skips 02:00 and 02:15 only',
      '*/15 2 * * *',
      '2026-10-03T12:00Z',
      ['2026-10-03T15:30Z', '2026-10-03T15:45Z', '2026-10-04T15:00Z'],
    ],
    // Lord Howe, 2026-04-05: 02:00 (+11) falls back to 01:30 (+10:30) at 15:00Z; 01:30–01:59 twice.
    [
      'Australia/Lord_Howe',
      'fixed repeated time runs on the first pass',
      '45 1 * * *',
      '2026-04-04T12:00Z',
      ['2026-04-04T14:45Z', '2026-04-05T15:15Z'],
    ],
    [
      'Australia/Lord_Howe',
      'fixed time before the repeat is untouched',
      '15 1 * * *',
      '2026-04-04T12:00Z',
      ['2026-04-04T14:15Z', '2026-04-05T14:45Z'],
    ],
    [
      'Australia/Lord_Howe',
      'interval repeats only :30 and :45',
      '*/15 1 * * *',
      '2026-04-04T12:00Z',
      [
        '2026-04-04T14:00Z',
        '2026-04-04T14:15Z',
        '2026-04-04T14:30Z',
        '2026-04-04T14:45Z',
        '2026-04-04T15:00Z',
        '2026-04-04T15:15Z',
        '2026-04-05T14:30Z',
      ],
    ],
    // Santiago, 2026-04-05: 24:00 (-03) falls back to 23:00 (-04) on Saturday 4 April (03:00Z).
    [
      'America/Santiago',
      'fixed repeated time before midnight runs once',
      '30 23 * * *',
      '2026-04-04T12:00Z',
      ['2026-04-05T02:30Z', '2026-04-06T03:30Z'],
    ],
    [
      'America/Santiago',
      'Saturday interval runs on both passes',
      '*/30 23 * * 6',
      '2026-04-04T12:00Z',
      [
        '2026-04-05T02:00Z',
        '2026-04-05T02:30Z',
        '2026-04-05T03:00Z',
        '2026-04-05T03:30Z',
        '2026-04-12T03:00Z',
      ],
    ],
    // Santiago, 2026-09-06: midnight (-04) jumps to 01:00 (-03) on Sunday 6 September (04:00Z).
    [
      'America/Santiago',
      'midnight job runs at 01:00',
      '0 0 * * *',
      '2026-09-05T12:00Z',
      ['2026-09-06T04:00Z', '2026-09-07T03:00Z'],
    ],
    [
      'America/Santiago',
      'fixed time in the gap runs at 01:00',
      '30 0 * * *',
      '2026-09-05T12:00Z',
      ['2026-09-06T04:00Z', '2026-09-07T03:30Z'],
    ],
    [
      'America/Santiago',
      'weekly Sunday-midnight job still runs that week',
      '0 0 * * 0',
      '2026-09-01T00:00Z',
      ['2026-09-06T04:00Z', '2026-09-13T03:00Z'],
    ],
    [
      'America/Santiago',
      'hourly job skips midnight',
      '0 * * * *',
      '2026-09-06T02:30Z',
      ['2026-09-06T03:00Z', '2026-09-06T04:00Z', '2026-09-06T05:00Z'],
    ],
    // Nuuk, 2026-03-29: 23:00 (-02) on Saturday jumps to 00:00 (-01) on Sunday (01:00Z): the gap crosses midnight.
    [
      'America/Nuuk',
      'fixed time in a gap that ends the next day runs when it ends',
      '30 23 * * *',
      '2026-03-28T12:00Z',
      ['2026-03-29T01:00Z', '2026-03-30T00:30Z'],
    ],
    [
      'America/Nuuk',
      'weekly Saturday job is not lost that week',
      '0 23 * * 6',
      '2026-03-21T12:00Z',
      ['2026-03-22T01:00Z', '2026-03-29T01:00Z', '2026-04-05T00:00Z'],
    ],
    [
      'America/Nuuk',
      'interval follows real time across the gap',
      '*/30 * * * *',
      '2026-03-28T23:45Z',
      ['2026-03-29T00:00Z', '2026-03-29T00:30Z', '2026-03-29T01:00Z', '2026-03-29T01:30Z'],
    ],
    // Nuuk, 2026-10-25: 00:00 (-01) falls back to 23:00 (-02) on Saturday 24 October (01:00Z).
    [
      'America/Nuuk',
      'fixed repeated time runs on the first pass',
      '30 23 * * *',
      '2026-10-24T12:00Z',
      ['2026-10-25T00:30Z', '2026-10-26T01:30Z'],
    ],
  ])('%s: %s (%s)', (zone, _label, expr, after, expected) => {
    expect(runs(expr, zone, after, expected.length)).toEqual(expected)
  })

  it('works around croner 11.0.1, which drops a fixed run whose gap ends on the next day', () => {
    // If this starts failing after a croner upgrade, croner fixed it and fixedTimeRuns may go.
    const native = new Cron('30 23 * * *', { mode: '5-part', timezone: 'America/Nuuk', paused: true })
    expect(native.nextRun(new Date('2026-03-28T12:00Z'))?.toISOString()).toBe('2026-03-30T00:30:00.000Z')
  })

  describe('interval runs agree with croner matching in the zone itself', () => {
    // nextRuns matches interval jobs on the wall clock of each stretch of one UTC offset (about
    // eight times faster than croner with a zone); croner with the zone is the reference. The
    // offset changes are found here apart from the code under test: the offset Intl names, daily.
    const reference = (expr: string, zone: string, after: Date, count = 100) =>
      new Cron(expr, { mode: '5-part', timezone: zone, paused: true })
        .nextRuns(count, after)
        .map((d) => d.toISOString())
    const ours = (expr: string, zone: string, after: Date, count = 100) =>
      nextRuns(expr, { after, timezone: zone, count }).map((d) => d.toISOString())
    const DAY = 86_400_000

    /** The days of 2026 that end at another offset than they begin with, in each zone. */
    function changeDays(): { zone: string; day: number }[] {
      const days: { zone: string; day: number }[] = []
      for (const zone of Intl.supportedValuesOf('timeZone')) {
        let before = offset(zone, Date.UTC(2026, 0, 1))
        for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += DAY) {
          const after = offset(zone, day + DAY)
          if (after !== before) days.push({ zone, day })
          before = after
        }
      }
      return days
    }

    it('across every offset change of 2026 in every zone the runtime knows', () => {
      const days = changeDays()
      expect(days.length).toBeGreaterThan(100) // Europe, the Americas, Oceania at least
      const zones = new Set(days.map((d) => d.zone))
      for (const zone of ['Europe/Berlin', 'America/Godthab', 'Australia/Lord_Howe', 'Pacific/Chatham'])
        expect(zones).toContain(zone)
      const mismatches: string[] = []
      for (const { zone, day } of days) {
        // The change is within that UTC day: from three hours before it, 33 hours of runs every 20
        // minutes, and two nights of runs in the small hours, when most clocks change.
        const after = new Date(day - 3 * 3_600_000)
        for (const [expr, count] of [
          ['*/20 * * * *', 100],
          ['15,45 0-3 * * *', 16],
        ] as const) {
          const expected = reference(expr, zone, after, count)
          if (JSON.stringify(ours(expr, zone, after, count)) !== JSON.stringify(expected))
            mismatches.push(`${zone} ${expr} after ${after.toISOString()}`)
        }
      }
      expect(mismatches).toEqual([])
    })

    it.each(['UTC', 'Asia/Kolkata', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham'])(
      'over a new year and in stretches without a change (%s)',
      (zone) => {
        for (const after of ['2026-12-31T20:00Z', '2026-06-15T00:00Z']) {
          for (const expr of ['7 * * * *', '*/30 9-17 * * 1-5', '0 0-23/6 1 * *']) {
            expect(ours(expr, zone, new Date(after)), `${expr} after ${after}`).toEqual(
              reference(expr, zone, new Date(after)),
            )
          }
        }
      },
    )
  })

  it('Pacific/Apia has had no DST since 2021: a fixed job stays at +13 all year', () => {
    // Samoa's old transitions were the last Sunday of September and the first Sunday of April.
    expect(runs('0 9 * * *', 'Pacific/Apia', '2026-04-03T00:00Z', 3)).toEqual([
      '2026-04-03T20:00Z',
      '2026-04-04T20:00Z',
      '2026-04-05T20:00Z',
    ])
    expect(runs('0 9 * * *', 'Pacific/Apia', '2026-09-25T00:00Z', 3)).toEqual([
      '2026-09-25T20:00Z',
      '2026-09-26T20:00Z',
      '2026-09-27T20:00Z',
    ])
    expect(runs('0 3 * * *', 'Pacific/Apia', '2026-12-30T00:00Z', 1)).toEqual(['2026-12-30T14:00Z'])
  })
})
