import { describe, expect, it } from 'vitest'
import { MAX_NAMED_KEYS, MAX_NAMED_PATH, repeatedJsonKeys } from './json-keys.ts'

describe('repeatedJsonKeys', () => {
  it('names a key given twice at the top, once however often it repeats', () => {
    expect(repeatedJsonKeys('{"scope":"personal","name":"a","scope":"shared","scope":"x"}')).toEqual([
      'scope',
    ])
  })

  it('names nested keys by their path, through objects and arrays', () => {
    const text = '{"extra":{"a":1,"a":2},"list":[{"k":1},{"k":1,"k":2}],"b":{"c":{"d":1,"d":1}}}'
    expect(repeatedJsonKeys(text)).toEqual(['extra.a', 'list.1.k', 'b.c.d'])
  })

  it('compares keys as JSON reads them, escapes decoded', () => {
    expect(repeatedJsonKeys('{"a":1,"\\u0061":2}')).toEqual(['a'])
  })

  it('does not take values, array items or quoted punctuation for keys', () => {
    const text = '{"a":"a","b":["a","a"],"c":"x\\",\\"c\\":{","d":{"a":1},"e":{"a":1}}'
    expect(repeatedJsonKeys(text)).toEqual([])
  })

  it('keeps apart the same key in sibling objects and in an object and its child', () => {
    expect(repeatedJsonKeys('[{"a":1},{"a":1},{"a":{"a":1}}]')).toEqual([])
  })

  it('walks nesting deeper than the call stack allows', () => {
    const depth = 200_000
    expect(repeatedJsonKeys(`${'['.repeat(depth)}{"a":1,"a":2}${']'.repeat(depth)}`)).toHaveLength(1)
  })

  it(`names a path longer than ${MAX_NAMED_PATH} characters by its end`, () => {
    // 10,000 arrays deep, the path is 20,000 characters: named whole, 50 such paths made an
    // answer ten times the size of the body that asked for it.
    const [named] = repeatedJsonKeys(`${'['.repeat(10_000)}{"a":1,"a":2}${']'.repeat(10_000)}`)
    expect(named).toHaveLength(MAX_NAMED_PATH)
    expect(named).toMatch(/^….*\.0\.a$/)
  })

  it(`stops at ${MAX_NAMED_KEYS} keys named`, () => {
    const pairs = Array.from({ length: 200 }, (_, i) => `"k${i}":1,"k${i}":2`)
    expect(repeatedJsonKeys(`{${pairs.join(',')}}`)).toHaveLength(MAX_NAMED_KEYS)
  })
})
