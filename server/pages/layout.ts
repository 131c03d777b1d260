import { sql } from 'drizzle-orm'
import type { Caller } from '../auth/caller.ts'
import { membershipsJson, type MembershipRow } from '../accounts/store.ts'
import { orgSettingsFromStored } from '../accounts/org-settings.ts'
import { getDb, type Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import { unreadCount } from '../integrations/views.ts'
import { budgetPauseOf, orgBudgetOf, spendIfBudgeted } from '../runs/budget.ts'
import { schedulerSilenceMs, schedulerWarningAfter } from '../scheduler/status.ts'

type LayoutRow = {
  orgs: MembershipRow[] | string
  unread: number
  silence_ms: unknown
  settings: unknown
  spent: number | string | null
}

/**
 * What the app layout shows about the caller on every page: who, where, and where else they could
 * be; the bell's unread count; the scheduler and budget banners. One statement (a round trip per
 * page instead of five); the scheduler banner's details are read only when no scheduler is alive.
 */
export async function getLayoutData(caller: Caller, db: Db = getDb()) {
  const [row] = await queryRows<LayoutRow>(
    db,
    sql`select ${membershipsJson(caller.userId)} as orgs, ${unreadCount(caller)} as unread,
          ${schedulerSilenceMs} as silence_ms,
          (select settings from org_settings where org_id = ${caller.orgId}) as settings,
          ${spendIfBudgeted(caller.orgId)} as spent`,
  )
  if (!row) throw new Error('the layout query answered no row')
  // postgres.js parses json; another driver may hand it over as text.
  const memberships = (typeof row.orgs === 'string' ? JSON.parse(row.orgs) : row.orgs) as MembershipRow[]
  const settings = row.settings === null ? null : orgSettingsFromStored(row.settings)
  const budget = orgBudgetOf(settings?.monthlyBudgetUsd ?? null, Number(row.spent ?? 0))
  return {
    /** Unread alerts (the header's bell). */
    unread: Number(row.unread),
    user: { id: caller.userId, name: caller.name, email: caller.email, timezone: caller.timezone },
    org: { id: caller.orgId, name: caller.orgName, role: caller.role },
    orgs: memberships.map((m) => ({ id: m.orgId, name: m.orgName, role: m.role })),
    schedulerWarning: await schedulerWarningAfter(row.silence_ms, caller.orgId, db),
    budgetPause: budgetPauseOf(budget),
  }
}
