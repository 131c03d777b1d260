import { requireCaller } from '#server/auth/caller.ts'
import { getOrgUsage } from '#server/agent/quota.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].usage'

// GET /_agent-native/usage → { usage: { enabledJobs, deploymentKeyRuns } } (admins and owners)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => ({ usage: await getOrgUsage(await requireCaller(request)) }))
