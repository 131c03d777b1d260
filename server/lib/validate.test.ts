import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { checkInput } from './validate.ts'

const Job = z.object({
  schedule: z.string().regex(/^@daily$/, 'must be @daily'),
  instructions: z.string(),
  extra: z.record(z.string(), z.unknown()).optional(),
})
const fieldsOf = (result: ReturnType<typeof checkInput>) =>
  result.ok ? [] : result.problems.map((p) => p.field)

describe('checkInput names every bad field at once (decision 0251)', () => {
  it('text PostgreSQL cannot store beside a field the schema refuses', () => {
    const result = checkInput(Job, { schedule: 'hourly', instructions: 'Go \ud800 now.' })
    expect(result).toEqual({
      ok: false,
      problems: [
        { field: 'schedule', message: 'schedule: must be @daily' },
        {
          field: 'instructions',
          message: 'instructions: must be valid Unicode (it has an unpaired surrogate)',
        },
      ],
    })
  })

  it('every unstorable string, once per field, the schema passing', () => {
    const result = checkInput(Job, {
      schedule: '@daily',
      instructions: 'a\u0000b',
      extra: { note: 'x\udc00y', ['k\u0000']: 'c\u0000', ['j\u0000']: 1 },
    })
    expect(fieldsOf(result)).toEqual(['instructions', 'extra.note', 'extra', 'extra.k\u0000'])
  })

  it("a field's own schema problem comes first, its text's after it, never both", () => {
    const result = checkInput(Job, { schedule: 'a\u0000b', instructions: 'Go.' })
    expect(result).toEqual({
      ok: false,
      problems: [{ field: 'schedule', message: 'schedule: must be @daily' }],
    })
  })

  it('text a transform made', () => {
    const Parsed = z.object({ value: z.string().transform((text) => JSON.parse(text) as unknown) })
    expect(fieldsOf(checkInput(Parsed, { value: '"a\\u0000b"' }))).toEqual(['value'])
  })

  it('storable input passes', () => {
    expect(checkInput(Job, { schedule: '@daily', instructions: 'Go 😀 now.' })).toMatchObject({ ok: true })
  })
})
