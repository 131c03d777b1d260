/**
 * The test servers' ports: `fetch` refuses some ports outright ("bad port"), and a test app once
 * drew 10080 and failed its first health check on CI.
 */
import { describe, expect, it } from 'vitest'
import { fetchMayUse } from '#tests/support/free-port.ts'

describe('fetchMayUse', () => {
  it('is false for a port fetch refuses, true for one it connects to', async () => {
    const refused = await fetch('http://127.0.0.1:10080/').catch((err: Error) => err)
    expect((refused as Error & { cause?: Error }).cause?.message).toBe('bad port')
    expect(fetchMayUse(10_080)).toBe(false)
    expect(fetchMayUse(10_081)).toBe(true)
  })
})
