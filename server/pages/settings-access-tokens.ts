/**
 * Settings → Access tokens: the person's personal access tokens for the MCP server in their
 * current organisation. Made and revoked through the tokens domain; a new token is in the answer
 * once, with the endpoint to connect to.
 */
import type { Caller } from '../auth/caller.ts'
import { env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { createAccessToken, listAccessTokens, revokeAccessToken } from '../tokens/access-tokens.ts'
import { runForm } from './forms.ts'

export async function loadAccessTokensPage(caller: Caller, request: Request) {
  const origin = env().APP_URL ?? new URL(request.url).origin
  return {
    tokens: await listAccessTokens(caller),
    endpoint: `${origin}/_agent-native/mcp`,
    orgName: caller.orgName,
  }
}

/** Form intents: create (name and the checked scopes; answers the token once) and revoke. */
export async function handleAccessTokensAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', name = '', id = '' }, all) => {
    switch (intent) {
      case 'create': {
        const { token, summary } = await createAccessToken(caller, { name, scopes: all('scopes') })
        return { token, name: summary.name }
      }
      case 'revoke':
        await revokeAccessToken(caller, id)
        return { token: null, name: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
