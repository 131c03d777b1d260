import { getAuth, handleAuthRequest } from '#server/auth/auth.ts'
import type { Route } from './+types/[_agent-native].auth.$'

// better-auth answers everything under /_agent-native/auth/* itself; the writes a limit counts
// take turns (handleAuthRequest).
export const loader = ({ request }: Route.LoaderArgs) => getAuth().handler(request)
export const action = ({ request }: Route.ActionArgs) => handleAuthRequest(request)
