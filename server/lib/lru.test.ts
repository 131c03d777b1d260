import { describe, expect, it } from 'vitest'
import { BoundedCache } from './lru.ts'

describe('BoundedCache', () => {
  it('never holds more than maxEntries, dropping the least recently used', () => {
    const cache = new BoundedCache<string, number>(3)
    cache.set('a', 1).set('b', 2).set('c', 3)
    expect(cache.get('a')).toBe(1) // a is now the most recent; b the least
    cache.set('d', 4)
    expect(cache.size).toBe(3)
    expect(cache.get('b')).toBeUndefined()
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4])
    for (let i = 0; i < 10_000; i++) cache.set(`k${i}`, i)
    expect(cache.size).toBe(3)
  })

  it('forgets entries after their time to live', () => {
    let now = 1_000
    const cache = new BoundedCache<string, string>(10, 5_000, () => now)
    cache.set('token', 'caller')
    now += 4_999
    expect(cache.get('token')).toBe('caller')
    now += 1
    expect(cache.get('token')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('creates a missing value once and caches null results too', () => {
    const cache = new BoundedCache<string, string | null>(10)
    let calls = 0
    const create = (key: string) => (calls++, key === 'none' ? null : key.toUpperCase())
    expect(cache.getOrCreate('x', create)).toBe('X')
    expect(cache.getOrCreate('x', create)).toBe('X')
    expect(cache.getOrCreate('none', create)).toBeNull()
    expect(cache.getOrCreate('none', create)).toBeNull()
    expect(calls).toBe(2)
  })

  it('refuses a size below one', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError)
  })
})
