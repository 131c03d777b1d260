import { describe, expect, it } from 'vitest'
import { formatUsd } from './format.ts'

describe('formatUsd', () => {
  it('shows cents for real money and two significant digits, at most five decimals, below a cent', () => {
    expect(formatUsd(12.345)).toBe('$12.35')
    expect(formatUsd(0.02)).toBe('$0.02')
    expect(formatUsd(0.00028)).toBe('$0.00028')
    expect(formatUsd(0.000188)).toBe('$0.00019')
    // A trivial run on Sonnet 5.5: "$0.000094" was wider than a phone's runs table.
    expect(formatUsd(0.000094)).toBe('$0.00009')
    expect(formatUsd(0)).toBe('$0')
  })
})
