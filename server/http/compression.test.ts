import { describe, expect, it } from 'vitest'
import { negotiateEncoding } from './compression.ts'

describe('negotiateEncoding', () => {
  it('takes brotli at equal quality, whatever order the client lists (browsers put gzip first)', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br')
    expect(negotiateEncoding('br')).toBe('br')
    expect(negotiateEncoding('*')).toBe('br')
  })

  it('follows the q-values the client gives', () => {
    expect(negotiateEncoding('br;q=0.1, gzip')).toBe('gzip')
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip')
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip')
    expect(negotiateEncoding('GZIP;Q=0.8, br;q=0.9')).toBe('br')
  })

  it('answers null for neither, or when identity is preferred', () => {
    expect(negotiateEncoding(undefined)).toBeNull()
    expect(negotiateEncoding('')).toBeNull()
    expect(negotiateEncoding('identity')).toBeNull()
    expect(negotiateEncoding('deflate')).toBeNull()
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeNull()
    expect(negotiateEncoding('identity;q=1, gzip;q=0.5')).toBeNull()
  })
})
