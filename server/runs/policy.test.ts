import { describe, expect, it } from 'vitest'
import { formatDuration } from './format.ts'
import { memoizeNextRun } from './next-run-memo.ts'
import { decideOverlap } from './overlap.ts'
import {
  LATE_GRACE_MS,
  MAX_MISSED_ROWS,
  RETRY_BACKOFF_MS,
  canRetry,
  planSlots,
  retryDelayMs,
} from './policy.ts'

const at = (iso: string) => new Date(iso)
const times = (dates: { scheduledFor: Date }[]) =>
  dates.map((d) => d.scheduledFor.toISOString().slice(11, 16))

describe('planSlots', () => {
  const base = { schedule: '0 * * * *', timezone: 'UTC', catchUp: 'latest' as const }

  it('fires the due slot on time and moves on to the next one', () => {
    const plan = planSlots({
      ...base,
      nextRunAt: at('2026-01-05T07:00:00Z'),
      now: at('2026-01-05T07:00:00.040Z'),
    })
    expect(plan.fire).toMatchObject({ trigger: 'schedule', reason: null })
    expect(plan.fire?.scheduledFor.toISOString()).toBe('2026-01-05T07:00:00.000Z')
    expect(plan.missed).toEqual([])
    expect(plan.nextRunAt?.toISOString()).toBe('2026-01-05T08:00:00.000Z')
  })

  it('plans nothing before the slot is due', () => {
    const plan = planSlots({
      ...base,
      nextRunAt: at('2026-01-05T07:00:00Z'),
      now: at('2026-01-05T06:59:59Z'),
    })
    expect(plan).toMatchObject({ fire: null, missed: [] })
  })

  it('catchUp latest: the newest due slot runs as a catch-up, the older ones are missed', () => {
    const plan = planSlots({
      ...base,
      nextRunAt: at('2026-01-05T03:00:00Z'),
      now: at('2026-01-05T06:20:00Z'),
    })
    expect(times(plan.missed)).toEqual(['03:00', '04:00', '05:00'])
    expect(plan.fire).toMatchObject({
      trigger: 'catch-up',
      reason: 'ran 20 min late, because no server was running the scheduler at its time (catchUp: latest)',
    })
    expect(plan.nextRunAt?.toISOString()).toBe('2026-01-05T07:00:00.000Z')
  })

  it('catchUp skip: late slots are all missed; a slot within the grace period still runs', () => {
    const late = planSlots({
      ...base,
      catchUp: 'skip',
      nextRunAt: at('2026-01-05T05:00:00Z'),
      now: at('2026-01-05T06:02:00Z'),
    })
    expect(late.fire).toBeNull()
    expect(times(late.missed)).toEqual(['05:00', '06:00'])
    const onTime = planSlots({
      ...base,
      catchUp: 'skip',
      nextRunAt: at('2026-01-05T06:00:00Z'),
      now: new Date(Date.parse('2026-01-05T06:00:00Z') + LATE_GRACE_MS),
    })
    expect(onTime.fire?.trigger).toBe('schedule')
  })

  it(`keeps at most ${MAX_MISSED_ROWS} missed slots after a long outage, with bounded work`, () => {
    let calls = 0
    const counting = memoizeNextRun((s, o) => {
      calls++
      return memoizeNextRun()(s, o)
    })
    const plan = planSlots(
      {
        ...base,
        schedule: '* * * * *',
        nextRunAt: at('2025-01-01T00:00:00Z'),
        now: at('2026-01-05T06:00:30Z'),
      },
      counting,
    )
    expect(plan.missed).toHaveLength(MAX_MISSED_ROWS)
    expect(plan.missed[0]!.reason).toMatch(
      /earlier missed times since 2025-01-01T00:00:00.000Z are not listed/,
    )
    expect(plan.fire?.scheduledFor.toISOString()).toBe('2026-01-05T06:00:00.000Z')
    expect(calls).toBeLessThan(1_000)
  })
})

describe('retries', () => {
  it('back off 30 s, 1 min, 5 min, 15 min, 60 min', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n))).toEqual([30_000, 60_000, 300_000, 900_000, 3_600_000])
    expect(retryDelayMs(9)).toBe(RETRY_BACKOFF_MS.at(-1))
  })
  it('retry while the failed attempt is within the allowed retries', () => {
    expect(canRetry(1, 0)).toBe(false)
    expect(canRetry(1, 2)).toBe(true)
    expect(canRetry(3, 2)).toBe(false)
  })
})

describe('decideOverlap', () => {
  it('is free when nothing is in flight', () => {
    expect(decideOverlap('skip', [])).toEqual({ status: 'free' })
  })
  it('skip: skipped while running or queued', () => {
    expect(decideOverlap('skip', [{ status: 'running' }]).status).toBe('skipped')
    expect(decideOverlap('skip', [{ status: 'queued' }]).status).toBe('skipped')
  })
  it('queue: one queued behind a running run, never two', () => {
    expect(decideOverlap('queue', [{ status: 'running' }]).status).toBe('queued')
    expect(decideOverlap('queue', [{ status: 'running' }, { status: 'queued' }]).status).toBe('skipped')
  })
})

it('formats durations for reasons', () => {
  expect([45_000, 180_000, 7_500_000, 97_200_000].map(formatDuration)).toEqual([
    '45 s',
    '3 min',
    '2 h 5 min',
    '1 d 3 h',
  ])
})
