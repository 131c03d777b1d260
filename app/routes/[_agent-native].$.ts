import { apiFallback } from '#server/http/fallback.ts'
import type { Route } from './+types/[_agent-native].$'

export const loader = ({ request }: Route.LoaderArgs) => apiFallback(request)
export const action = ({ request }: Route.ActionArgs) => apiFallback(request)
