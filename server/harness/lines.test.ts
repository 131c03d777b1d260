/**
 * The line reader of a harness CLI's stdout and of the provider's event stream the run's endpoint
 * meters: each byte read once, however a line is cut into chunks, and a line past the bound left
 * out without being held or joined.
 */
import { describe, expect, it } from 'vitest'
import { lineReader } from './lines.ts'

function reading(max?: number) {
  const lines: string[] = []
  const overLong: number[] = []
  const reader = lineReader(
    {
      line: (text) => lines.push(text) > 0,
      overLong: (seen) => overLong.push(seen) > 0,
    },
    max,
  )
  return { lines, overLong, reader }
}

const bytes = (text: string) => new TextEncoder().encode(text)

describe('lineReader', () => {
  it('joins a line cut across chunks, a character split between them included', () => {
    const { lines, reader } = reading()
    const all = bytes('one\ntwo é\nthree')
    for (let i = 0; i < all.length; i += 3) reader.push(all.subarray(i, i + 3))
    expect(lines).toEqual(['one', 'two é'])
    expect(reader.end()).toBe(true)
    expect(lines).toEqual(['one', 'two é', 'three'])
    expect(reader.end()).toBe(false)
  })

  it('answers whether a handler changed something', () => {
    const reader = lineReader({ line: (text) => text === 'yes', overLong: () => true })
    expect(reader.push(bytes('no\nno'))).toBe(false)
    expect(reader.push(bytes('\nyes\n'))).toBe(true)
  })

  it('leaves out a 50 MB line with no newline, sent in 64 KiB chunks, having held at most the bound', () => {
    const max = 4 * 1024 * 1024
    const { lines, overLong, reader } = reading(max)
    const chunk = new Uint8Array(64 * 1024).fill(0x61)
    reader.push(bytes('before\n'))
    for (let sent = 0; sent < 50_000_000; sent += chunk.length) reader.push(chunk)
    // Told once, as the line passed the bound: nothing of it was joined, decoded or kept after.
    expect(overLong).toEqual([max + chunk.length])
    reader.push(bytes('aaa\nafter\n'))
    expect(lines).toEqual(['before', 'after'])
    expect(overLong).toHaveLength(1)
  })

  it('reads a long line under the bound whole, once', () => {
    const { lines, overLong, reader } = reading(4 * 1024 * 1024)
    const chunk = new Uint8Array(64 * 1024).fill(0x62)
    for (let i = 0; i < 48; i++) reader.push(chunk)
    reader.push(bytes('\n'))
    expect(overLong).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toHaveLength(48 * 64 * 1024)
  })

  it('leaves out a line that ends in the chunk that takes it past the bound', () => {
    const { lines, overLong, reader } = reading(10)
    reader.push(bytes('12345'))
    reader.push(bytes('6789012\nok\n'))
    expect(overLong).toEqual([12])
    expect(lines).toEqual(['ok'])
  })
})
