import { describe, expect, it } from 'vitest'
import { cachedFormatterCount, formatExact, formatRelative, listTimeZones } from './time.ts'

describe('time formatting', () => {
  const now = new Date('2026-03-01T12:00:00Z')
  it('says how far away a moment is in the largest fitting unit', () => {
    expect(formatRelative(new Date('2026-03-01T15:00:00Z'), now, 'en')).toBe('in 3 hours')
    expect(formatRelative(new Date('2026-03-01T11:55:00Z'), now, 'en')).toBe('5 minutes ago')
    expect(formatRelative(new Date('2026-03-02T12:00:00Z'), now, 'en')).toBe('tomorrow')
    expect(formatRelative(new Date('2026-03-01T12:00:20Z'), now, 'en')).toBe('now')
  })
  it('formats the exact time in a given zone', () => {
    // ICU versions differ on the comma after the weekday.
    expect(formatExact(new Date('2026-03-01T06:00:00Z'), { timeZone: 'Europe/Berlin' })).toMatch(
      /^Sun,? 1 Mar 2026, 07:00$/,
    )
  })
  it('lists UTC first, once', () => {
    const zones = listTimeZones()
    expect(zones[0]).toBe('UTC')
    expect(zones.filter((z) => z === 'UTC')).toHaveLength(1)
    expect(zones).toContain('Europe/Berlin')
  })
  it('keeps a bounded number of formatters whatever zone spellings it is given', () => {
    const zone = 'europe/berlin'
    const at = new Date('2026-03-01T06:00:00Z')
    for (let i = 0; i < 1_000; i++) {
      const casing = [...zone].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join('')
      expect(formatExact(at, { timeZone: casing })).toMatch(/07:00$/)
    }
    expect(cachedFormatterCount()).toBeLessThanOrEqual(200)
  })
})
