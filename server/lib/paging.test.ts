import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { HttpError } from './errors.ts'
import { decodeCursor, encodeCursor, PageCursor, PageLimit } from './paging.ts'
import { parseInput } from './validate.ts'

const Query = z.object({ limit: PageLimit, cursor: PageCursor })
const fieldOf = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    return err instanceof HttpError ? { status: err.status, field: err.field, message: err.message } : err
  }
  return 'no error'
}

describe('page query', () => {
  it('defaults to 50 and accepts 1–200', () => {
    expect(parseInput(Query, {})).toEqual({ limit: 50 })
    expect(parseInput(Query, { limit: '200' }).limit).toBe(200)
    expect(parseInput(Query, { limit: '1' }).limit).toBe(1)
  })

  it.each(['0', '201', '2.5', 'ten', '-1', '', '1e1', '0x10', '+5', ' 1'])(
    'answers 400 naming limit for %j',
    (limit) => {
      expect(fieldOf(() => parseInput(Query, { limit }))).toMatchObject({
        status: 400,
        field: 'limit',
        message: expect.stringMatching(/^limit: must be/),
      })
    },
  )
})

describe('cursors', () => {
  it('round-trip their sort key', () => {
    const cursor = encodeCursor(['job-0042', '2026-11-30T07:00:00.000Z', null, 7])
    expect(decodeCursor(cursor, ['string', 'time?', 'time?', 'number'])).toEqual([
      'job-0042',
      new Date('2026-11-30T07:00:00.000Z'),
      null,
      7,
    ])
  })

  it.each([
    ['garbage', 'not base64 json'],
    ['wrong length', encodeCursor(['a'])],
    ['wrong kind', encodeCursor([1, 2])],
    ['bad time', encodeCursor(['a', 'yesterday'])],
  ])('answers 400 naming cursor for a %s cursor', (_, cursor) => {
    expect(fieldOf(() => decodeCursor(cursor, ['string', 'time?']))).toMatchObject({
      status: 400,
      field: 'cursor',
    })
  })
})
