import { requireCaller } from '#server/auth/caller.ts'
import { api, json } from '#server/http/respond.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { createAccessToken, listAccessTokens } from '#server/tokens/access-tokens.ts'
import type { Route } from './+types/[_agent-native].access-tokens._index'

// GET → { tokens } (your live tokens in your current organisation; never the tokens themselves)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ tokens: await listAccessTokens(await requireCaller(request)) }))

// POST { name, scopes } → 201 { token (shown this once), summary }; a session only, never a token
export const action = ({ request }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['GET', 'POST'])
    const caller = await requireCaller(request)
    return json(await createAccessToken(caller, await readJsonBody(request, 4096)), { status: 201 })
  })
