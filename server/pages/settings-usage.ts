/** Settings → Usage: the organisation against its limits, for admins and owners (others see why not). */
import { getOrgUsage, type OrgUsage } from '../agent/quota.ts'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'

export async function loadUsagePage(caller: Caller): Promise<{ orgName: string; usage: OrgUsage | null }> {
  return { orgName: caller.orgName, usage: isOrgAdmin(caller) ? await getOrgUsage(caller) : null }
}
