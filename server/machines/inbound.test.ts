import { describe, expect, it } from 'vitest'
import { createInboundMeter, INBOUND_RATES, MAX_DEPTH, MAX_VALUES, measureMessage } from './inbound.ts'

const json = (value: unknown) => JSON.stringify(value)
const past = (text: string) => measureMessage(text).past

describe('measureMessage', () => {
  it('passes every message of the protocol and refuses deeper nesting', () => {
    const listing = { jsonrpc: '2.0', id: 1, result: { entries: [{ name: 'a', type: 'file', size: 1 }] } }
    expect(past(json(listing))).toBeNull()
    expect(past('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH))).toBeNull()
    expect(past('['.repeat(MAX_DEPTH + 1))).toMatch(/nested/)
    expect(past(`{"a":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`)).toMatch(/nested/)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(past(json({ text: '['.repeat(1000) }))).toBeNull()
    expect(past(json({ text: `\\"${'['.repeat(1000)}` }))).toBeNull()
    expect(past(json({ text: `"${'{'.repeat(1000)}"` }))).toBeNull()
  })

  it('passes a listing as large as a message can be, and refuses 16 MiB of empty objects', () => {
    // The densest reply the protocol makes: short names, no times, four values in forty bytes.
    const entry = (i: number) => ({ name: i.toString(36).padStart(4, '0'), type: 'file', size: 0 })
    const entries = Array.from({ length: (16 * 1024 * 1024) / 40 }, (_, i) => entry(i))
    const listing = json({ jsonrpc: '2.0', id: 1, result: { entries } })
    expect(listing.length).toBeGreaterThan(16_000_000)
    expect(measureMessage(listing)).toEqual({ values: expect.any(Number), past: null })
    const flood = `{"jsonrpc":"2.0","id":1,"result":[${'{},'.repeat(5_000_000)}{}]}`
    expect(past(flood)).toBe('it holds more than 2,097,152 values')
    expect(MAX_VALUES).toBe(2_097_152)
  })
})

describe('createInboundMeter', () => {
  it('lets a burst through, then asks the reader to wait for the rate to catch up', () => {
    let now = 0
    const meter = createInboundMeter({ bytesPerSecond: 1000, burst: 2000, perMessage: 0 }, () => now)
    expect(meter.admit(1500)).toBe(0)
    expect(meter.admit(500)).toBe(0)
    expect(meter.admit(1000)).toBe(1000)
    now = 3000 // back to a full burst, never more
    expect(meter.admit(2000)).toBe(0)
    expect(meter.admit(1)).toBe(1)
  })

  it('charges each message more than its bytes: a flood of tiny ones waits as a flood of big ones does', () => {
    let now = 0
    const meter = createInboundMeter({ bytesPerSecond: 1000, burst: 2000, perMessage: 100 }, () => now)
    // Twenty one-byte messages cost 2,020 of a 2,000 burst: the twentieth waits for 20 more to
    // come in. Unfixed, bytes alone were counted and two thousand of them went through first.
    const waits = Array.from({ length: 20 }, () => meter.admit(1))
    expect(waits).toEqual([...Array(19).fill(0), 20])
    now = 5000
    expect(meter.admit(1000)).toBe(0) // 1,100 of the 2,000
    expect(meter.admit(800)).toBe(0) // 900: none left
    expect(meter.admit(0)).toBe(100) // an empty message still costs 100
  })

  it('charges each value more than its bytes: a message of many small values waits as a larger one does', () => {
    let now = 0
    const meter = createInboundMeter(
      { bytesPerSecond: 1000, burst: 2000, perMessage: 0, perValue: 8 },
      () => now,
    )
    // 300 bytes of empty objects, 200 values: 1,900 of the 2,000. Unfixed, values cost nothing and
    // six such messages went through at once.
    expect(meter.admit(300, 200)).toBe(0)
    expect(meter.admit(300, 200)).toBe(1800)
    now = 10_000
    expect(meter.admit(2000)).toBe(0) // a message of one string costs its bytes alone
  })

  it('admits forty-byte messages on a connection at a few thousand a second, past a burst of under ten thousand', () => {
    let now = 0
    const connection = createInboundMeter(INBOUND_RATES.connection, () => now)
    let burst = 0
    while (connection.admit(40) === 0) burst++
    expect(burst).toBeLessThan(10_000)
    now += 1000
    let inASecond = 0
    while (connection.admit(40) === 0) inASecond++
    expect(inASecond).toBeLessThan(2_500)
  })
})
