/**
 * Settings → Usage: the organisation against its limits, its monthly budget against this month's
 * spend, and tokens and cost per job, person and day; for admins and owners (others see why not).
 */
import { updateOrgSettings } from '../accounts/org-settings.ts'
import { getOrgUsage, type OrgUsage } from '../agent/quota.ts'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { getUsageOverview, type UsageOverview } from '../runs/usage-report.ts'
import { runForm } from './forms.ts'
import { orRouteError } from './page-errors.ts'

export async function loadUsagePage(
  caller: Caller,
  request: Request,
): Promise<{ orgName: string; usage: OrgUsage | null; overview: UsageOverview | null }> {
  if (!isOrgAdmin(caller)) return { orgName: caller.orgName, usage: null, overview: null }
  const days = new URL(request.url).searchParams.get('days') ?? undefined
  // A bad `?days=` is the visitor's typing: the page's 400 naming it, not a 500.
  const [usage, overview] = await Promise.all([
    getOrgUsage(caller),
    orRouteError(getUsageOverview(caller, { days })),
  ])
  return { orgName: caller.orgName, usage, overview }
}

/** intent "budget" with `monthlyBudgetUsd` (dollars; empty: no budget). */
export async function saveUsagePage(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', monthlyBudgetUsd = '' }) => {
    if (intent !== 'budget') throw badRequest(`intent: unknown action "${intent}"`, 'intent')
    const text = monthlyBudgetUsd.trim()
    // Form text becomes a number only when it is one; anything else reaches the schema as text.
    const value = text === '' ? null : Number.isFinite(Number(text)) ? Number(text) : text
    return (await updateOrgSettings(caller, { monthlyBudgetUsd: value })).settings
  })
}
