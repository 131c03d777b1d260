import { describe, expect, it } from 'vitest'
import { HttpError } from '../lib/errors.ts'
import { readIfMatch, readJsonBody, readTextBody } from './request.ts'

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

describe('readJsonBody', () => {
  const post = (body: BodyInit) =>
    new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit)

  it('reads a JSON object', async () => {
    expect(await readJsonBody(post('{"name":"digest"}'))).toEqual({ name: 'digest' })
  })

  it.each(['', 'not json', '[1,2]', 'null', '"text"'])(
    'refuses %j with a 400 naming the body',
    async (text) => {
      await expect(readJsonBody(post(text))).rejects.toMatchObject({ status: 400, field: 'body' })
    },
  )

  it('stops reading a stream once it passes the limit (413), without waiting for the rest', async () => {
    let pulled = 0
    let closed = false
    // An endless body: a reader that buffered everything before checking would never return.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(1024).fill(0x20))
      },
      cancel() {
        closed = true
      },
    })
    await expect(readJsonBody(post(endless), 4096)).rejects.toMatchObject({ status: 413 })
    expect(closed).toBe(true)
    expect(pulled).toBeLessThan(20 * 1024)
  })
})
