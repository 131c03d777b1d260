import { describe, expect, it } from 'vitest'
import { jsonPastBounds } from './json-shape.ts'

const bounds = { maxDepth: 3, maxValues: 5 }

describe('jsonPastBounds', () => {
  it.each([
    ['{"a":[1,2]}', null],
    ['[[[]]]', null],
    ['[[[[]]]]', /more than 3 arrays or objects/],
    ['[1,2,3,4,5,6]', /more than 5 values/],
    ['[{},{},{}]', /more than 5 values/],
    // Brackets and commas inside strings are text, whatever escapes stand before their quotes.
    ['["[[[[,,,,,,"]', null],
    ['["\\"[[[[,,,,,,"]', null],
    ['["\\\\",[[[]]]]', /more than 3 arrays or objects/],
    ['"unterminated [[[[', null],
  ])('%s', (text, why) => {
    const past = jsonPastBounds(text, bounds)
    if (why === null) expect(past).toBeNull()
    else expect(past).toMatch(why)
  })

  it('stops at the first bound passed, without reading the rest', () => {
    const text = `[${'{},'.repeat(5_000_000)}{}]`
    expect(jsonPastBounds(text, { maxDepth: 128, maxValues: 250_000 })).toMatch(/250,000 values/)
  })
})
