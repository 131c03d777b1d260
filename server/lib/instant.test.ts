import { describe, expect, it } from 'vitest'
import { unstorableInstant } from './instant.ts'

describe('instants PostgreSQL can hold', () => {
  it.each([
    '0001-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '0001-01-01T01:00:00+01:00',
    '2026-03-29T02:30:00+02:00',
  ])('%s is held', (text) => {
    expect(unstorableInstant(new Date(text))).toBeNull()
  })

  it.each([
    '0000-01-01T00:00:00Z',
    '-000001-01-01T00:00:00Z',
    '+010000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    // Year 0001 as written, year 0 once the offset is taken off.
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:00:00-01:00',
  ])('%s is not', (text) => {
    expect(unstorableInstant(new Date(text))).toMatch(/year 0001 to 9999/)
  })

  it('an invalid Date is not', () => {
    expect(unstorableInstant(new Date('not a time'))).toBe('must be a date and time')
  })
})
