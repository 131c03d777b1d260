import { organizationClient } from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/react'

/** Browser-side better-auth client; same-origin, mounted under /_agent-native/auth. */
export const authClient = createAuthClient({
  basePath: '/_agent-native/auth',
  plugins: [organizationClient()],
})
