import { describe, expect, it } from 'vitest'
import type { Caller } from '../../auth/caller.ts'
import { createClockTool, readClock } from './clock.ts'
import { summariseJob } from './manage-jobs.ts'

const caller: Caller = {
  userId: 'usr_1',
  email: 'ana@example.com',
  name: 'Ana',
  timezone: 'Europe/Berlin',
  orgId: 'org_1',
  orgName: 'Acme',
  role: 'member',
}
const now = new Date('2026-03-29T00:30:00Z')
const call = { toolCallId: 'c1', messages: [] }

describe('the clock tool', () => {
  it('tells the wall time, weekday and offset in a zone', () => {
    expect(readClock(now, 'Europe/Berlin')).toMatchObject({
      now: '2026-03-29T00:30:00.000Z',
      date: '2026-03-29',
      time: '01:30',
      weekday: 'Sunday',
      utcOffset: '+01:00',
    })
    // Later that night the clocks went forward: the offset follows.
    expect(readClock(new Date('2026-03-29T02:00:00Z'), 'Europe/Berlin')).toMatchObject({
      time: '04:00',
      utcOffset: '+02:00',
    })
    expect(readClock(now, 'UTC').utcOffset).toBe('+00:00')
  })

  it('defaults to the caller’s zone and refuses an unknown one', async () => {
    const clock = createClockTool({ caller, mode: 'chat', now: () => now })
    expect(await clock.execute!({}, call)).toMatchObject({
      ok: true,
      timezone: 'Europe/Berlin',
      time: '01:30',
    })
    expect(await clock.execute!({ timezone: 'Mars/Olympus' }, call)).toMatchObject({
      ok: false,
      error: { status: 400 },
    })
    const utc = createClockTool({ caller: { ...caller, timezone: null }, mode: 'run', now: () => now })
    expect(await utc.execute!({}, call)).toMatchObject({ timezone: 'UTC', time: '00:30' })
  })
})

describe('job summaries', () => {
  it('state the schedule in words with its zone, and say when a job is paused', () => {
    const job = {
      name: 'morning-digest',
      description: 'Every weekday at 07:00 (Europe/Berlin)',
      enabled: true,
    }
    expect(summariseJob('Created', job)).toBe(
      'Created job morning-digest, every weekday at 07:00 (Europe/Berlin)',
    )
    expect(summariseJob('Updated', { ...job, enabled: false })).toBe(
      'Updated job morning-digest, every weekday at 07:00 (Europe/Berlin) (paused)',
    )
  })
})
