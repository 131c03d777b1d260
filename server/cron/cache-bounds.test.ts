import { describe, expect, it } from 'vitest'
import { describeCron, isValidTimezone, nextRuns } from './cron.ts'
import { parsedScheduleCount } from './parse.ts'
import { canonicalZone, zoneCacheSizes } from './zones.ts'

/** The i-th letter-casing of `text` (bit k of i uppercases its k-th letter). */
function casing(text: string, i: number): string {
  let k = 0
  return [...text].map((c) => (/[a-z]/.test(c) && (i >> k++) & 1 ? c.toUpperCase() : c)).join('')
}

describe('cron caches stay bounded', () => {
  it('treats every casing of a zone as the canonical zone, and 20,000 casings do not grow the caches', () => {
    const zone = 'america/argentina/buenos_aires'
    const after = new Date('2026-11-30T12:00:00Z')
    expect(canonicalZone(casing(zone, 12_345))).toBe(canonicalZone('America/Argentina/Buenos_Aires'))
    expect(canonicalZone('europe/BERLIN')).toBe('Europe/Berlin')
    const expected = nextRuns('30 9 * * *', { after, timezone: 'America/Argentina/Buenos_Aires', count: 2 })
    const before = zoneCacheSizes()
    for (let i = 1; i <= 20_000; i++) {
      const spelled = casing(zone, i)
      expect(isValidTimezone(spelled)).toBe(true)
      if (i % 1_000 === 0) {
        expect(nextRuns('30 9 * * *', { after, timezone: spelled, count: 2 })).toEqual(expected)
        expect(describeCron('30 9 * * *', { timezone: spelled })).toBe(`Every day at 09:30 (${spelled})`)
      }
    }
    const sizes = zoneCacheSizes()
    expect(sizes.spellings).toBeLessThanOrEqual(2_000)
    // One formatter per canonical zone: the 20,000 spellings added at most this one.
    expect(sizes.canonical).toBeLessThanOrEqual(before.canonical + 1)
  }, 120_000)

  it('keeps at most 5,000 parsed schedules however many distinct ones it sees', () => {
    for (let i = 0; i < 6_000; i++) {
      expect(describeCron(`${i % 60} ${Math.floor(i / 60) % 24} ${1 + (i % 28)} * *`)).toMatch(/^At /)
    }
    expect(parsedScheduleCount()).toBeLessThanOrEqual(5_000)
  })
})
