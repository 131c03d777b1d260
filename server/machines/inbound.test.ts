import { describe, expect, it } from 'vitest'
import { createInboundMeter, INBOUND_RATES, MAX_DEPTH, nestedDeeperThan } from './inbound.ts'

const json = (value: unknown) => Buffer.from(JSON.stringify(value))

describe('nestedDeeperThan', () => {
  it('passes every message of the protocol and refuses deeper nesting', () => {
    const listing = { jsonrpc: '2.0', id: 1, result: { entries: [{ name: 'a', type: 'file', size: 1 }] } }
    expect(nestedDeeperThan(json(listing))).toBe(false)
    expect(nestedDeeperThan(Buffer.from('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)))).toBe(false)
    expect(nestedDeeperThan(Buffer.from('['.repeat(MAX_DEPTH + 1)))).toBe(true)
    expect(nestedDeeperThan(Buffer.from(`{"a":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`))).toBe(true)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestedDeeperThan(json({ text: '['.repeat(1000) }))).toBe(false)
    expect(nestedDeeperThan(json({ text: `\\"${'['.repeat(1000)}` }))).toBe(false)
    expect(nestedDeeperThan(json({ text: `"${'{'.repeat(1000)}"` }))).toBe(false)
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
