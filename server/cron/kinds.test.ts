import { describe, expect, it } from 'vitest'
import { describeSchedule, nextRun, nextRuns, validateSchedule } from './cron.ts'

const iso = (dates: Date[]) => dates.map((d) => d.toISOString().replace(':00.000Z', 'Z'))

describe('at schedules', () => {
  it('fire once at the wall time in the zone, then never', () => {
    const after = new Date('2026-12-01T00:00Z')
    expect(iso(nextRuns('at 2026-12-24T09:00', { after, timezone: 'Europe/Berlin', count: 5 }))).toEqual([
      '2026-12-24T08:00Z',
    ])
    expect(
      nextRun('at 2026-12-24T09:00', { after: new Date('2026-12-24T08:00Z'), timezone: 'Europe/Berlin' }),
    ).toBeNull()
  })

  it('follow the fixed-time DST policy: a gap runs when it ends, a repeat at its first pass', () => {
    const after = new Date('2026-01-01T00:00Z')
    expect(iso(nextRuns('at 2026-03-29T02:30', { after, timezone: 'Europe/Berlin' }))).toEqual([
      '2026-03-29T01:00Z',
    ])
    expect(iso(nextRuns('at 2026-10-25T02:30', { after, timezone: 'Europe/Berlin' }))).toEqual([
      '2026-10-25T00:30Z',
    ])
  })

  it('describe themselves with the zone', () => {
    expect(describeSchedule('at 2026-12-24T09:00', { timezone: 'Europe/Berlin' })).toBe(
      'Once on 24 Dec 2026 at 09:00 (Europe/Berlin)',
    )
  })

  it.each([
    ['at tomorrow', 'at: must be a date and time like 2026-12-24T09:00'],
    ['at 2026-02-30T09:00', 'at: 2026-02-30T09:00 is not a real date and time'],
    ['at 2026-12-24T24:00', 'at: 2026-12-24T24:00 is not a real date and time'],
  ])('refuse %s', (expr, message) => {
    expect(validateSchedule(expr)).toEqual({ ok: false, message })
  })
})

describe('every schedules', () => {
  it('sit on a fixed grid one interval apart, wherever the count starts', () => {
    const a = nextRuns('every 90m', { after: new Date('2026-06-01T10:17Z'), count: 3 })
    expect(iso(a)).toEqual(['2026-06-01T10:30Z', '2026-06-01T12:00Z', '2026-06-01T13:30Z'])
    // From a slot itself: exactly one interval later (no drift).
    expect(nextRun('every 90m', { after: a[0]! })).toEqual(a[1])
  })

  it('follow real time across a DST change', () => {
    const runs = nextRuns('every 1h', {
      after: new Date('2026-03-29T00:30Z'),
      timezone: 'Europe/Berlin',
      count: 3,
    })
    expect(iso(runs)).toEqual(['2026-03-29T01:00Z', '2026-03-29T02:00Z', '2026-03-29T03:00Z'])
  })

  it.each([
    ['every 90m', 'Every 90 minutes'],
    ['every 1m', 'Every minute'],
    ['every 2h', 'Every 2 hours'],
    ['every 1d', 'Every day'],
    ['every 1h30m', 'Every 90 minutes'],
  ])('describe %s as %s', (expr, words) => {
    expect(describeSchedule(expr, { timezone: 'Europe/Berlin' })).toBe(words)
  })

  it.each([
    ['every 30s', 'every: the shortest interval is 1 minute (1m)'],
    ['every 0m', 'every: the shortest interval is 1 minute (1m)'],
    ['every 32d', 'every: the longest interval is 31 days (31d)'],
    ['every often', 'every: must be an interval like 90m, 2h, 1d or 1h30m'],
  ])('refuse %s', (expr, message) => {
    expect(validateSchedule(expr)).toEqual({ ok: false, message })
  })
})

describe('a schedule of hostile length', () => {
  // Both once took the every/interval regexes quadratic time: 100,000 characters held the loop
  // for about ten seconds, and a 256 KiB job body allows more than twice that.
  it.each([
    ['an every with spaces before a stray character', `every 1d${' '.repeat(20_000)}!`],
    ['an every with spaces before a line break', `every${' '.repeat(20_000)}x\ny`],
    ['a cron list of 10,000 minutes', `${'0,'.repeat(10_000)}0 * * * *`],
  ])('is refused past 1,000 characters, naming its length: %s', (_, expr) => {
    expect(validateSchedule(expr)).toEqual({
      ok: false,
      message: `schedule must be at most 1000 characters (this one has ${expr.trim().length})`,
    })
  })
})
