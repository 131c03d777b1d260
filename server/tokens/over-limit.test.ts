import { describe, expect, it } from 'vitest'
import { OverLimitTokens } from './over-limit.ts'

describe('OverLimitTokens', () => {
  it('answers the seconds left in the window, then forgets the token when it ends', () => {
    const memory = new OverLimitTokens()
    memory.remember('a', 42_300, 1_000)
    expect(memory.waitFor('a', 1_000)).toBe(43)
    expect(memory.waitFor('a', 42_400)).toBe(1)
    expect(memory.waitFor('a', 43_300)).toBeNull()
    expect(memory.size).toBe(0)
    expect(memory.waitFor('b', 1_000)).toBeNull()
  })

  it('holds at most its size: ended windows make room first, then the one remembered first', () => {
    const memory = new OverLimitTokens(3)
    memory.remember('a', 60_000, 0)
    memory.remember('b', 1_000, 0)
    memory.remember('c', 60_000, 0)
    memory.remember('d', 60_000, 2_000)
    expect(memory.size).toBe(3)
    expect(memory.waitFor('b', 2_000)).toBeNull()
    expect(memory.waitFor('a', 2_000)).toBe(58)
    memory.remember('e', 60_000, 3_000)
    expect(memory.size).toBe(3)
    expect(memory.waitFor('a', 3_000)).toBeNull()
    for (const key of ['c', 'd', 'e']) expect(memory.waitFor(key, 3_000)).not.toBeNull()
  })
})
