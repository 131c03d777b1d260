/**
 * The usage page's data: runs' tokens and estimated cost per job, per person and per day, chat's
 * per person and per key source over the same days, and the organisation's monthly budget against
 * this month's spend. For owners and admins.
 */
import { z } from 'zod'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { isValidTimezone } from '../cron/cron.ts'
import { forbidden } from '../lib/errors.ts'
import { queryInteger } from '../lib/query-integer.ts'
import { parseInput } from '../lib/validate.ts'
import { readOrgBudget, type OrgBudget } from './budget.ts'
import { selectChatUsage, type ChatUsage } from './chat-usage.ts'
import { selectUsageReport, type UsageReport } from './usage.ts'

export const UsageQuery = z.strictObject({
  days: queryInteger({ min: 1, max: 90, message: 'must be a whole number of days from 1 to 90' })
    .default(30)
    .describe('How many days back the report reaches, today included (1–90, default 30)'),
})

export type UsageOverview = { report: UsageReport; chat: ChatUsage; budget: OrgBudget }

/** @throws HttpError 403 for members, 400 naming `days` for a bad window. */
export async function getUsageOverview(caller: Caller, query: unknown = {}): Promise<UsageOverview> {
  if (!isOrgAdmin(caller)) throw forbidden("Only the organisation's admins and owners see its usage")
  const { days } = parseInput(UsageQuery, query)
  // Days are the caller's days: a run at 23:30 in Berlin counts on that Berlin day.
  const timezone = caller.timezone && isValidTimezone(caller.timezone) ? caller.timezone : 'UTC'
  const [report, chat, budget] = await Promise.all([
    selectUsageReport(caller.orgId, { days, timezone, viewerId: caller.userId }),
    selectChatUsage(caller.orgId, { days, timezone }),
    readOrgBudget(caller.orgId),
  ])
  return { report, chat, budget }
}
