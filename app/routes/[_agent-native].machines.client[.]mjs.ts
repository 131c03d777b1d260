import { env } from '#server/env.ts'
import { api } from '#server/http/respond.ts'
import { HttpError } from '#server/lib/errors.ts'
import { machineClientSource } from '#server/machines/build-client.ts'

// GET /_agent-native/machines/client.mjs → the self-contained machine client (public: it holds no secret)
export const loader = () =>
  api(async () => {
    const source = await machineClientSource(env().NODE_ENV === 'production')
    if (!source)
      throw new HttpError(503, 'client_not_built', 'The machine client is not built: run `npm run build`')
    return new Response(source, {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
    })
  })
