import { describe, expect, it } from 'vitest'
import { RefusedUntil } from './refused-until.ts'

describe('RefusedUntil', () => {
  it('answers the seconds left in the refusal, then forgets the key when it ends', () => {
    const memory = new RefusedUntil(10)
    memory.remember('a', 42_300, 1_000)
    expect(memory.waitFor('a', 1_000)).toBe(43)
    expect(memory.waitFor('a', 42_400)).toBe(1)
    expect(memory.waitFor('a', 43_300)).toBeNull()
    expect(memory.size).toBe(0)
    expect(memory.waitFor('b', 1_000)).toBeNull()
  })

  it('holds at most its size: ended refusals make room first', () => {
    const memory = new RefusedUntil(3)
    memory.remember('a', 60_000, 0)
    memory.remember('b', 1_000, 0)
    memory.remember('c', 60_000, 0)
    memory.remember('d', 60_000, 2_000)
    expect(memory.size).toBe(3)
    expect(memory.waitFor('b', 2_000)).toBeNull()
    for (const key of ['a', 'c', 'd']) expect(memory.waitFor(key, 2_000)).not.toBeNull()
  })

  it('when none has ended, one held key makes room, never the one remembered now', () => {
    const memory = new RefusedUntil(3)
    for (const key of ['a', 'b', 'c']) memory.remember(key, 60_000, 0)
    memory.remember('d', 60_000, 1_000)
    expect(memory.size).toBe(3)
    expect(memory.waitFor('d', 1_000)).toBe(60)
    expect(['a', 'b', 'c'].filter((key) => memory.waitFor(key, 1_000) !== null)).toHaveLength(2)
  })

  it('a client cycling through one key more than it holds is still answered from memory', () => {
    // Dropping the oldest, every request of this cycle missed (1,010 of 1,010): the key a request
    // comes from is always the one the round before dropped. At random, about two a round miss.
    const memory = new RefusedUntil(100)
    const keys = Array.from({ length: 101 }, (_, i) => `client-${i}`)
    for (const key of keys) memory.remember(key, 60_000, 0)
    let missed = 0
    for (let round = 0; round < 10; round++) {
      for (const key of keys) {
        if (memory.waitFor(key, 1_000) !== null) continue
        missed++
        memory.remember(key, 59_000, 1_000)
      }
    }
    expect(memory.size).toBe(100)
    expect(missed).toBeLessThan(101)
  })
})
