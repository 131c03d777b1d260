import { expect, it } from 'vitest'
import { toPostgresJson, toPostgresText } from './text.ts'

it('replaces NUL and lone surrogates with U+FFFD and keeps surrogate pairs', () => {
  expect(toPostgresText('a\u0000b')).toBe('a\ufffdb')
  expect(toPostgresText('cut \ud83d')).toBe('cut \ufffd')
  expect(toPostgresText('\ude00 low first')).toBe('\ufffd low first')
  expect(toPostgresText('pair 😀 kept')).toBe('pair 😀 kept')
  expect(toPostgresText('plain')).toBe('plain')
})

it('cleans every string and key of a JSON value, leaving other values alone', () => {
  const value = { 'k\u0000': ['x\ud800', { n: 1, ok: true, none: null, s: 'y\u0000' }] }
  expect(toPostgresJson(value)).toEqual({
    'k\ufffd': ['x\ufffd', { n: 1, ok: true, none: null, s: 'y\ufffd' }],
  })
})
