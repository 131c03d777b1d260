import { describe, expect, it } from 'vitest'
import { makeRedactor, redactData, withJsonForm } from './redact.ts'

describe('makeRedactor', () => {
  it('hides every occurrence, longest value first so one inside another is hidden whole', () => {
    const redact = makeRedactor(['abcd', 'abcdef', ''])
    expect(redact('x abcdef y abcd z')).toBe('x •••• y •••• z')
  })

  it('shows what a value names in its place, the first naming winning', () => {
    const redact = makeRedactor([
      { value: 'tok-1234', shown: '[A]' },
      { value: 'tok-1234', shown: '[B]' },
      'pass',
    ])
    expect(redact('tok-1234/pass')).toBe('[A]/••••')
  })

  it('leaves text alone with nothing to hide', () => {
    expect(makeRedactor([])('anything')).toBe('anything')
  })
})

describe('withJsonForm', () => {
  it('hides a value of several lines with quotes as it reads inside a JSON string too', () => {
    const key = '-----BEGIN KEY-----\nab"c\\d\n-----END KEY-----'
    const redact = makeRedactor(withJsonForm(key))
    expect(redact(JSON.stringify({ out: `key: ${key}` }))).toBe('{"out":"key: ••••"}')
    expect(redact(`key: ${key}`)).toBe('key: ••••')
    expect(withJsonForm('plain-value')).toEqual(['plain-value'])
  })
})

describe('redactData', () => {
  it('redacts every string, keys included, and keeps the shape and other values', () => {
    const redact = makeRedactor(['s3cret'])
    expect(redactData({ a: ['s3cret!', 1, null, true], s3cret: { b: 'no' }, c: 's3cret' }, redact)).toEqual({
      a: ['••••!', 1, null, true],
      '••••': { b: 'no' },
      c: '••••',
    })
  })
})
