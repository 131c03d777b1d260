import { describe, expect, it } from 'vitest'
import { HttpError } from '../lib/errors.ts'
import { readIfMatch, readTextBody } from './request.ts'

const withIfMatch = (value?: string) =>
  new Request('http://x/', value === undefined ? {} : { headers: { 'if-match': value } })

describe('readIfMatch', () => {
  it.each([
    [undefined, undefined],
    ['*', undefined],
    ['3', 3],
    ['"3"', 3],
    ['W/"12"', 12],
    [' "7" ', 7],
  ])('%j → %j', (header, expected) => expect(readIfMatch(withIfMatch(header))).toBe(expected))

  it.each(['abc', '"3', '3"', '"3", "4"', '-1', '1.5', '"9999999999"'])('rejects %j with a 400', (header) => {
    expect(() => readIfMatch(withIfMatch(header))).toThrow(
      expect.objectContaining({ status: 400, field: 'If-Match' }),
    )
  })
})

describe('readTextBody', () => {
  const put = (body: BodyInit) =>
    new Request('http://x/', { method: 'PUT', body, duplex: 'half' } as RequestInit)

  it('reads UTF-8 text', async () => {
    expect(await readTextBody(put('héllo'), 100)).toBe('héllo')
  })

  it('stops past the limit with a 413', async () => {
    await expect(readTextBody(put('x'.repeat(101)), 100)).rejects.toMatchObject({ status: 413 })
  })

  it('refuses bytes that are not UTF-8', async () => {
    const err = await readTextBody(put(new Uint8Array([0xff, 0xfe, 0x00])), 100).catch((e) => e)
    expect(err).toBeInstanceOf(HttpError)
    expect(err).toMatchObject({ status: 400, field: 'body' })
  })
})
