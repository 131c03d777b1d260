import { describe, expect, it } from 'vitest'
import {
  clipText,
  findUnstorableText,
  MAX_CHECKED_VALUES,
  notInlineText,
  notPlainLine,
  quoteText,
  storableText,
  trimTrailing,
  unstorableText,
} from './text.ts'

describe('text PostgreSQL cannot store', () => {
  it.each([
    ['plain', null],
    ['emoji 😀 and CJK 漢字', null],
    ['a\u0000b', /NUL/],
    ['lone high \ud800 here', /unpaired surrogate/],
    ['lone low \udc00', /unpaired surrogate/],
    ['\ud83d', /unpaired surrogate/],
  ])('%j', (text, reason) => {
    const found = unstorableText(text)
    if (reason === null) expect(found).toBeNull()
    else expect(found).toMatch(reason)
  })

  it('cleans what must be kept anyway', () => {
    expect(storableText('a\u0000b\ud800c😀')).toBe('ab\ufffdc😀')
  })

  it('finds every bad string in JSON, keys included', () => {
    expect(
      findUnstorableText({ extra: { a: ['ok', 'b\u0000'], ['k\ud800']: 'c\udc00' }, z: 'x\u0000' }),
    ).toEqual([
      { path: ['extra', 'a', '1'], reason: expect.stringMatching(/NUL/) },
      { path: ['extra'], reason: expect.stringMatching(/key/) },
      { path: ['extra', 'k\ud800'], reason: expect.stringMatching(/surrogate/) },
      { path: ['z'], reason: expect.stringMatching(/NUL/) },
    ])
    expect(findUnstorableText({ a: { b: 'fine' }, n: 1, z: null })).toEqual([])
  })

  it('stops at its budget on parts shared many times over, naming the outermost field', () => {
    // Seven levels of ten references to the level below: 10^7 strings reached, 71 values held.
    let level: unknown = Array(10).fill('x')
    for (let i = 0; i < 6; i++) level = Array(10).fill(level)
    const found = findUnstorableText({ fine: 'ok', notify: [level] })
    expect(found).toEqual([{ path: ['notify'], reason: 'is too large to check (over 1,000,000 values)' }])
    expect(MAX_CHECKED_VALUES).toBe(1_000_000)
  })

  it('walks any depth and stops after its hundredth finding', () => {
    let deep: unknown = 'x\u0000'
    for (let i = 0; i < 50_000; i++) deep = [deep]
    const [found] = findUnstorableText({ deep })
    expect(found?.path).toHaveLength(50_001)
    expect(findUnstorableText(Array(1_000).fill('\u0000'))).toHaveLength(100)
  })

  it('one-line fields refuse control characters', () => {
    expect(notPlainLine('Ana\nLima')).toMatch(/one line/)
    expect(notPlainLine('Ana Lima')).toBeNull()
  })
})

describe('text shown inside other text', () => {
  it.each([
    ['Claude Code on my laptop', null],
    ['emoji 😀, CJK 漢字, Arabic مرحبا and "quotes"', null],
    ['tab\there', /control characters/],
    ['next\u0085line', /control characters/],
    ['line\u2028separator', /line separators/],
    ['right\u202eto-left', /direction controls/],
    ['isolate\u2067here', /direction controls/],
  ])('%j', (text, reason) => {
    const found = notInlineText(text)
    if (reason === null) expect(found).toBeNull()
    else expect(found).toMatch(reason)
  })

  it('is quoted so its quotes end where it does, with layout characters escaped', () => {
    const text = 'laptop" (pat_x); via "other\\\u202e\u2028'
    const quoted = quoteText(text)
    expect(quoted).toBe('"laptop\\" (pat_x); via \\"other\\\\\\u202e\\u2028"')
    expect(JSON.parse(quoted)).toBe(text)
    expect(quoteText('CI bot')).toBe('"CI bot"')
  })
})

describe('trimTrailing', () => {
  it('drops only the run at the end, and stays linear over runs inside the text', () => {
    expect(trimTrailing('https://example.com///', '/')).toBe('https://example.com')
    expect(trimTrailing('a//b', '/')).toBe('a//b')
    expect(trimTrailing('///', '/')).toBe('')
    expect(trimTrailing('', '-')).toBe('')
    const long = `${'/'.repeat(200_000)}x/`
    expect(trimTrailing(long, '/')).toBe(long.slice(0, -1))
  })
})

describe('clipText', () => {
  it('keeps text that fits, cuts the rest saying how long it was, never halving a surrogate pair', () => {
    expect(clipText('abc', 3)).toBe('abc')
    expect(clipText('abcdef', 3)).toBe('abc… (6 characters in all)')
    expect(clipText('ab\u{1F600}cd', 3)).toBe('ab… (6 characters in all)')
    // A head read from storage, with the stored text's length.
    expect(clipText('abc', 3, 12_345)).toBe('abc… (12,345 characters in all)')
  })
})
