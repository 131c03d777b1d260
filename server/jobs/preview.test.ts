import { describe, expect, it } from 'vitest'
import { PREVIEW_HORIZON_YEARS, previewSchedule } from './preview.ts'

const now = new Date('2026-03-28T12:00:00Z')

describe('previewSchedule', async () => {
  it('describes the schedule and lists the next five runs in the zone', async () => {
    expect(await previewSchedule({ schedule: '0 7 * * 1-5', timezone: 'Europe/Berlin' }, now)).toEqual({
      valid: true,
      description: 'Every weekday at 07:00 (Europe/Berlin)',
      nextRuns: [
        '2026-03-30T05:00:00.000Z', // after the spring-forward weekend: CEST, UTC+2
        '2026-03-31T05:00:00.000Z',
        '2026-04-01T05:00:00.000Z',
        '2026-04-02T05:00:00.000Z',
        '2026-04-03T05:00:00.000Z',
      ],
    })
  })

  it(`lists the runs of the next ${PREVIEW_HORIZON_YEARS} years only`, async () => {
    // Twice on each 29 February (+03:30, 00:00 and 23:00): five runs take the next three.
    expect(await previewSchedule({ schedule: '0 */23 29 2 *', timezone: 'Asia/Tehran' }, now)).toMatchObject({
      valid: true,
      nextRuns: [
        '2028-02-28T20:30:00.000Z',
        '2028-02-29T19:30:00.000Z',
        '2032-02-28T20:30:00.000Z',
        '2032-02-29T19:30:00.000Z',
        '2036-02-28T20:30:00.000Z',
      ],
    })
    // The form then says the schedule does not fire in the next 20 years.
    expect(await previewSchedule({ at: '2047-01-01T00:00' }, now)).toMatchObject({
      valid: true,
      nextRuns: [],
    })
  })

  it('lets the event loop go between the years a rare schedule walks', async () => {
    // Five runs of a leap-day schedule walk eight years of a zone's offsets: in one call that held
    // the loop for 20 to 100 ms of anyone's typing in the form.
    let turns = 0
    let counting = true
    const tick = () => {
      if (!counting) return
      turns++
      setImmediate(tick)
    }
    setImmediate(tick)
    const preview = await previewSchedule({ schedule: '0 */23 29 2 *', timezone: 'America/Santiago' }, now)
    counting = false
    expect(preview.valid && preview.nextRuns).toHaveLength(5)
    expect(turns).toBeGreaterThan(0)
  })

  it('defaults to UTC', async () => {
    const preview = await previewSchedule({ schedule: '@daily' }, now)
    expect(preview).toMatchObject({ valid: true, description: 'Every day at 00:00 (UTC)' })
  })

  it.each([
    [{ schedule: '61 * * * *', timezone: 'UTC' }, 'schedule', /minute/],
    [{ schedule: '' }, 'schedule', /schedule: /],
    [{ schedule: 5 }, 'schedule', /cron expression/],
    [{ schedule: '* * * * * *' }, 'schedule', /5 fields|fields/],
    [{ schedule: '0 7 * * *', timezone: 'Mars/Olympus' }, 'timezone', /unknown time zone/],
  ])('%j is invalid in %s', async (input, field, message) => {
    const preview = await previewSchedule(input, now)
    expect(preview).toMatchObject({ valid: false, field })
    expect(preview.valid === false && preview.message).toMatch(message)
  })

  // Refused before any pattern reads it: the every regexes were quadratic (20,000 characters took
  // over a second here, and the GET's query string or a job body allows more).
  it.each([
    ['every', { every: `1d${' '.repeat(20_000)}!` }],
    ['schedule', { schedule: `every 1d${' '.repeat(20_000)}!` }],
  ] as const)('refuses a hostile %s of 20,000 characters, naming the field', async (field, input) => {
    expect(await previewSchedule(input, now)).toMatchObject({
      valid: false,
      field,
      message: expect.stringMatching(new RegExp(`^${field}: must be at most 1000 characters`)),
    })
  })
})
