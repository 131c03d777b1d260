import { describe, expect, it } from 'vitest'
import { runForm } from './forms.ts'

const formRequest = (pairs: [string, string][]) =>
  new Request('http://app.test/page', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(pairs).toString(),
  })

describe('a page form is checked as it is read', () => {
  it('runs the intent with its fields and every value of a repeated one', async () => {
    const request = formRequest([
      ['intent', 'create'],
      ['scopes', 'a'],
      ['scopes', 'b'],
    ])
    const result = await runForm(request, async (fields, all) => ({ fields, scopes: all('scopes') }))
    expect(result).toEqual({
      ok: true,
      intent: 'create',
      data: { fields: { intent: 'create', scopes: 'b' }, scopes: ['a', 'b'] },
    })
  })

  it('refuses text PostgreSQL cannot store, naming every bad field once, before the intent runs', async () => {
    let ran = false
    const request = formRequest([
      ['intent', 'revoke'],
      ['id', 'a\u0000b'],
      ['scopes', 'fine'],
      ['scopes', 'x\u0000'],
      ['scopes', 'y\u0000'],
      ['no\u0000te', 'fine'],
    ])
    const result = await runForm(request, async () => (ran = true))
    expect(ran).toBe(false)
    expect(result).toMatchObject({
      ok: false,
      intent: 'revoke',
      error: {
        status: 400,
        field: 'id',
        fields: [
          { field: 'id', message: 'id: must not contain the NUL character (U+0000)' },
          { field: 'scopes', message: 'scopes: must not contain the NUL character (U+0000)' },
          { field: 'note', message: 'note: its name must not contain the NUL character (U+0000)' },
        ],
      },
    })
  })

  it('takes the intent it is given for a page with one action', async () => {
    const result = await runForm(formRequest([['timezone', 'UTC']]), async () => null, 'save')
    expect(result).toMatchObject({ ok: true, intent: 'save' })
  })
})
