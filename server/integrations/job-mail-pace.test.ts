/**
 * The pace of job mail (decision 0531), as a rule over the times an address was mailed: what an
 * hourly job, jobs at the same hour and a job every minute get over a day. The database side
 * (places taken under a lock, given back, mails at once) is job-mail-flood-attack.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { JOB_MAIL_BURST, JOB_MAILS_PER_DAY, pacedUntil } from './job-mail-pace.ts'

const MINUTE = 60_000
const start = new Date('2026-12-07T00:00:00Z').getTime()
const at = (minutes: number) => new Date(start + minutes * MINUTE)

/** Offers a mail at each of `minutes` (ascending), as the pace decides: the minutes that were sent. */
function simulate(minutes: number[]): number[] {
  const sent: Date[] = []
  for (const m of minutes) if (pacedUntil(sent, at(m)) === null) sent.push(at(m))
  return sent.map((d) => (d.getTime() - start) / MINUTE)
}

describe('the pace of job mail to one address', () => {
  it('lets an hourly job mail every time, all day, day after day', () => {
    const hours = Array.from({ length: 24 * 3 }, (_, h) => h * 60)
    expect(simulate(hours)).toEqual(hours)
  })

  it('lets five jobs at the same hour mail at once, and holds a sixth for ten minutes', () => {
    const sent = [0, 0, 0, 0, 0].map(at)
    expect(pacedUntil(sent.slice(0, 4), at(0))).toBeNull()
    expect(pacedUntil(sent, at(0))).toEqual(at(10))
    expect(pacedUntil(sent, at(9.9))).toEqual(at(10))
    expect(pacedUntil(sent, at(10))).toBeNull()
    expect(JOB_MAIL_BURST).toBe(5)
  })

  it('gives a job every minute 5 mails in ten minutes and 100 in a day, then holds it until a day has passed', () => {
    const everyMinute = Array.from({ length: 2 * 24 * 60 }, (_, m) => m)
    const sent = simulate(everyMinute)
    expect(sent.slice(0, 7)).toEqual([0, 1, 2, 3, 4, 10, 11])
    const firstDay = sent.filter((m) => m < 24 * 60)
    expect(firstDay).toHaveLength(JOB_MAILS_PER_DAY)
    // The hundredth goes out after 3 h 14 min; the next when the first is a day old.
    expect(firstDay.at(-1)).toBe(194)
    expect(sent[JOB_MAILS_PER_DAY]).toBe(24 * 60)
    const last = sent.slice(0, JOB_MAILS_PER_DAY).map(at)
    expect(pacedUntil(last, at(600))).toEqual(at(24 * 60))
  })

  it('says the later of the two waits when both are full', () => {
    // 95 mails a day ago and five just now: the burst frees in ten minutes, the day later.
    const sent = [
      ...Array.from({ length: 95 }, (_, i) => at(i)),
      ...[0, 1, 2, 3, 4].map((i) => at(1_400 + i)),
    ]
    expect(pacedUntil(sent, at(1_405))).toEqual(at(24 * 60))
    expect(pacedUntil(sent, at(24 * 60 - 0.5))).toEqual(at(24 * 60))
    expect(pacedUntil(sent, at(24 * 60))).toBeNull()
  })
})
