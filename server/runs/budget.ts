/**
 * The organisation's monthly budget for runs on its own model key: what is set (org settings),
 * what was spent this month, and the reason runs on that key are skipped once it is reached.
 */
import { sql, type SQL } from 'drizzle-orm'
import { readOrgSettings } from '../accounts/org-settings.ts'
import { getDb, type Db } from '../db/client.ts'
import { orgKeySpendThisMonth, sumOrgKeySpendThisMonth } from './usage.ts'

export type OrgBudget = {
  /** Null: no budget set. */
  monthlyBudgetUsd: number | null
  /** Spent on the organisation's key since the first of this month (UTC). */
  spentUsd: number
  /** Whether runs on the organisation's key are paused. */
  reached: boolean
}

export async function readOrgBudget(orgId: string, db: Db = getDb()): Promise<OrgBudget> {
  const [settings, spentUsd] = await Promise.all([
    readOrgSettings(orgId, db),
    sumOrgKeySpendThisMonth(orgId, db),
  ])
  return orgBudgetOf(settings.monthlyBudgetUsd, spentUsd)
}

export function orgBudgetOf(monthlyBudgetUsd: number | null, spentUsd: number): OrgBudget {
  return { monthlyBudgetUsd, spentUsd, reached: monthlyBudgetUsd !== null && spentUsd >= monthlyBudgetUsd }
}

/**
 * The month's spend as a scalar subquery, only when the organisation has a budget (null otherwise:
 * there is nothing to compare it with, so nothing is summed).
 */
export const spendIfBudgeted = (orgId: string): SQL =>
  sql`case when jsonb_typeof((select settings from org_settings where org_id = ${orgId})->'monthlyBudgetUsd')
        = 'number' then ${orgKeySpendThisMonth(orgId)} end`

/** Dollars as people read them: cents, or four decimals below one cent. */
export const usd = (n: number) => `$${n.toFixed(n > 0 && n < 0.01 ? 4 : 2)}`

/** A run's spending cap: its job's own, or the server's on its own model key (agent/quota.ts `runCap`). */
export type RunCap = { usd: number; rule: 'job' | 'deployment' }

/** The end of a cap's stop message: which cap the run went over, and what to do about it. */
export function overCap(cap: RunCap): string {
  return cap.rule === 'job'
    ? `over the job's cap of ${usd(cap.usd)} per run (maxCostUsd). Raise the cap on the job's Definition tab or make the job do less.`
    : `over this server's cap of ${usd(cap.usd)} per run on its own model key (DEPLOYMENT_KEY_MAX_RUN_COST_USD). Add the organisation's own key under Settings → Models, or make the job do less.`
}

/**
 * Why runs on the organisation's key may not start now, or null when they may. `unsettledUsd`: what
 * is being spent outside any run's record (a harness started from chat).
 */
export async function orgBudgetRefusal(
  orgId: string,
  db: Db = getDb(),
  unsettledUsd = 0,
): Promise<string | null> {
  const settled = await readOrgBudget(orgId, db)
  const budget = orgBudgetOf(settled.monthlyBudgetUsd, settled.spentUsd + unsettledUsd)
  if (!budget.reached) return null
  return (
    `Paused: the organisation's monthly budget of ${usd(budget.monthlyBudgetUsd!)} for runs on its model key ` +
    `is reached (${usd(budget.spentUsd)} spent this month). Runs on the organisation's key resume when an ` +
    'admin raises the budget under Settings → Usage.'
  )
}

/**
 * Why a run on the organisation's key must stop now, or null when it may go on. What the run has
 * spent so far (`spentUsd`) is written to its record first, so runs going at the same time count
 * each other's spending as they go rather than once they end, and the month's sum that follows
 * counts this run's once, from its record. The record only grows while the run is going; when it
 * ends, its final usage replaces it.
 */
export async function runBudgetRefusal(
  orgId: string,
  runId: string,
  spentUsd: number,
  db: Db = getDb(),
): Promise<string | null> {
  await writeRunSpendSoFar(runId, spentUsd, db)
  return orgBudgetRefusal(orgId, db)
}

/**
 * Writes what a running run has spent so far to its record, where every budget's sum sees it; the
 * record only grows while the run is going (its final usage replaces it when it ends).
 */
export async function writeRunSpendSoFar(runId: string, spentUsd: number, db: Db = getDb()): Promise<void> {
  await db.execute(
    sql`update job_runs set cost_usd = greatest(coalesce(cost_usd, 0), ${Math.round(spentUsd * 1e6) / 1e6})
        where id = ${runId} and status = 'running'`,
  )
}

/** The layout's banner: the budget and the spend while runs on the org key are paused, else null. */
export function budgetPauseOf(budget: OrgBudget): { monthlyBudgetUsd: number; spentUsd: number } | null {
  return budget.reached ? { monthlyBudgetUsd: budget.monthlyBudgetUsd!, spentUsd: budget.spentUsd } : null
}
