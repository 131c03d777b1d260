import { describe, expect, it } from 'vitest'
import { createInboundMeter, MAX_DEPTH, nestedDeeperThan } from './inbound.ts'

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
    const meter = createInboundMeter({ bytesPerSecond: 1000, burst: 2000 }, () => now)
    expect(meter.admit(1500)).toBe(0)
    expect(meter.admit(500)).toBe(0)
    expect(meter.admit(1000)).toBe(1000)
    now = 3000 // back to a full burst, never more
    expect(meter.admit(2000)).toBe(0)
    expect(meter.admit(1)).toBe(1)
  })
})
