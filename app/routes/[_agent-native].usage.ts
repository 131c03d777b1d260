import { requireCaller } from '#server/auth/caller.ts'
import { getOrgUsage } from '#server/agent/quota.ts'
import { api } from '#server/http/respond.ts'
import { getUsageOverview } from '#server/runs/usage-report.ts'
import type { Route } from './+types/[_agent-native].usage'

// GET /_agent-native/usage?days= → { usage: { enabledJobs, jobs, deploymentKeyRuns, deploymentKeyChatTurns }, budget, report, chat } (admins and owners)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const usage = await getOrgUsage(caller)
    const query = Object.fromEntries(new URL(request.url).searchParams)
    return { usage, ...(await getUsageOverview(caller, query)) }
  })
