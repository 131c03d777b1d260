import { describe, expect, it } from 'vitest'
import { badFields, HttpError, toErrorBody } from '../lib/errors.ts'
import { authAnswer } from './auth-answer.ts'

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

async function refusal(answer: Response): Promise<HttpError> {
  const err = await authAnswer(answer).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(HttpError)
  return err as HttpError
}

describe('authAnswer', () => {
  it('answers the body of a 2xx', async () => {
    await expect(authAnswer(Promise.resolve(json({ id: 'org-1' }, 200)))).resolves.toEqual({ id: 'org-1' })
  })

  it("gives our hook's refusal back as it was, every field named", async () => {
    const hook = badFields([
      { field: 'slug', message: 'slug: bad' },
      { field: 'logo', message: 'logo: bad' },
    ])
    const err = await refusal(json(toErrorBody(hook), 400))
    expect({ ...err, message: err.message }).toEqual({ ...hook, message: hook.message })
  })

  it("keeps our hook's status and code", async () => {
    const err = await refusal(json({ error: { code: 'conflict', message: 'Only one', field: 'id' } }, 409))
    expect([err.status, err.code, err.message, err.field]).toEqual([409, 'conflict', 'Only one', 'id'])
  })

  it("maps better-auth's own refusals: a 403 is forbidden, a 5xx a 400, others bad_request", async () => {
    const forbidden = await refusal(json({ code: 'NO', message: 'Not allowed' }, 403))
    expect([forbidden.status, forbidden.code, forbidden.message]).toEqual([403, 'forbidden', 'Not allowed'])
    const failed = await refusal(json({ code: 'X', message: 'Could not' }, 500))
    expect([failed.status, failed.code]).toEqual([400, 'bad_request'])
    const missing = await refusal(json({ code: 'X', message: 'No such member' }, 404))
    expect([missing.status, missing.code, missing.message]).toEqual([404, 'bad_request', 'No such member'])
  })

  it('says something when the refusal has no words', async () => {
    const err = await refusal(new Response('', { status: 401 }))
    expect([err.status, err.code, err.message]).toEqual([401, 'bad_request', 'The request was refused'])
  })
})
