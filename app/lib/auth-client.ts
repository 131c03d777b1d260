import { organizationClient } from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/react'

/** Browser-side better-auth client; same-origin, mounted under /_agent-native/auth. */
export const authClient = createAuthClient({
  basePath: '/_agent-native/auth',
  plugins: [organizationClient()],
})

/**
 * The words of a refused auth call: better-auth's own refusals carry `message`, and the server's
 * checks that answer before it (a reset link that no longer fits, a closed sign-up) the API's
 * `{ error: { code, message } }`.
 */
export function refusalMessage(error: { message?: string }): string | undefined {
  return error.message ?? (error as { error?: { message?: string } }).error?.message
}
