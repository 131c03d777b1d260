import { describe, expect, it } from 'vitest'
import { MAX_KEY_LENGTH, MAX_NAMED_KEYS, MAX_NAMED_PATH, jsonKeyProblems } from './json-keys.ts'

const repeatedJsonKeys = (text: string) => jsonKeyProblems(text).map((p) => p.path)

describe('jsonKeyProblems', () => {
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

  it('names __proto__ keys wherever they are, and keeps constructor and prototype as data', () => {
    const text = '{"__proto__":{},"extra":{"constructor":1},"list":[{"prototype":{"__proto__":1}}]}'
    expect(jsonKeyProblems(text)).toEqual([
      { path: '__proto__', message: expect.stringMatching(/^__proto__: is not a key the server takes/) },
      {
        path: 'list.0.prototype.__proto__',
        message: expect.stringMatching(/^list\.0\.prototype\.__proto__: /),
      },
    ])
    // Spelt with escapes, it is the same key to JSON.parse.
    expect(repeatedJsonKeys('{"\\u005f_proto__":1}')).toEqual(['__proto__'])
  })

  it(`names a key over ${MAX_KEY_LENGTH} characters by its start, and takes one of that length`, () => {
    const long = 'k'.repeat(100_000)
    expect(jsonKeyProblems(`{"extra":{"${long}":1}}`)).toEqual([
      {
        path: `extra.${'k'.repeat(40)}…`,
        message: `extra.${'k'.repeat(40)}…: a key must be at most ${MAX_KEY_LENGTH} characters`,
      },
    ])
    expect(jsonKeyProblems(`{"extra":{"${'k'.repeat(MAX_KEY_LENGTH)}":1}}`)).toEqual([])
  })

  it("leaves long keys alone where tools' outputs come back (longKeys: false), not the other rules", () => {
    const output = `{"output":{"${'p/'.repeat(200)}":1},"a":1,"a":2,"__proto__":1}`
    expect(jsonKeyProblems(output, { longKeys: false }).map((p) => p.path)).toEqual(['a', '__proto__'])
  })
})
