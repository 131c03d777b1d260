import { requireCaller } from '../auth/caller.ts'
import { notFound } from '../lib/errors.ts'
import { api } from './respond.ts'

/** Any /_agent-native/ path no route claims: 401 without a session, else a JSON 404. */
export function apiFallback(request: Request): Promise<Response> {
  return api(async () => {
    await requireCaller(request)
    throw notFound(`No API route for ${request.method} ${new URL(request.url).pathname}`)
  })
}
