/**
 * The organisation's monthly budget for runs on its own model key: what is set (org settings),
 * what was spent this month, and the reason runs on that key are skipped once it is reached.
 */
import { sql, type SQL } from 'drizzle-orm'
import { readOrgSettings } from '../accounts/org-settings.ts'
import { getDb, type Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { raisedRunCost, raisedRunTokens, type RunUsageSoFar } from './store.ts'
import { orgKeySpendThisMonth, roundUsd, sumOrgKeySpendThisMonth } from './usage.ts'

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

/**
 * The most output one model call is held for before it is made (decision 0480), and the most any
 * call is given: the builtin agent asks for it (agent/loop.ts), and a harness asking for more is
 * given it (harness/endpoint.ts), so the hold is every call's worst case. It is what the model SDK
 * asks for by default on the Sonnet 4.x models; Claude Code asks the 5.x models for 128,000.
 */
export const CALL_OUTPUT_RESERVE_TOKENS = 64_000

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
 * Why a run on the organisation's key must not make its next model call, or null when it may
 * (`admitCall`): `spentUsd` is what it has spent so far, `reserveUsd` the worst case of the call,
 * `soFar` the run's count to write with it ({@link SpendRecord}).
 */
export async function runBudgetRefusal(
  orgId: string,
  runId: string,
  spentUsd: number,
  reserveUsd = 0,
  soFar?: RunUsageSoFar,
): Promise<string | null> {
  return admitCall({ kind: 'run', id: runId, soFar }, spentUsd, reserveUsd, {
    lock: `budget:org:${orgId}`,
    keySource: 'org',
    refusal: (tx) => orgBudgetRefusal(orgId, tx),
  })
}

/** A budget a run's model calls are admitted against: its lock, its key and its question. */
export type CallBudget = {
  /** The advisory lock every check of this budget takes (lock.ts `lockKey`). */
  lock: string
  keySource: 'org' | 'deployment'
  /** Why the budget is reached, read in the check's transaction; null while it is not. */
  refusal: (tx: Db) => Promise<string | null>
}

/**
 * A run or a chat turn whose spending so far is written before a budget's sum is read. `soFar`, for
 * a run's check after one of its agent's steps: the run's tokens, model and cost, which its page
 * shows, written in the same statement (the step's one write, run-spend.ts).
 */
export type SpendRecord = { kind: 'run' | 'turn'; id: string; soFar?: RunUsageSoFar }

/**
 * Admits a running run's (or chat turn's, decision 0496) next model call against `budget`, or
 * answers why not (decision 0480). The checks of one budget take turns under its lock. Each writes
 * the record's spending so far (`spentUsd`, and a run's count with it, `soFar`; the record only
 * grows) and drops what it held for its last call; reads the budget, which counts every other
 * run's and turn's spending and what each holds for the call it was admitted to make; and, when
 * there is room, holds `reserveUsd` (this call's worst case) on the record, a run's with the key it
 * spends. Those asking at once therefore see each other's calls before those calls are paid for,
 * and together pass the budget by at most the call admitted last. A run's hold ends when the run
 * ends (budgets count it only while the run is `running`), a turn's when it is settled. The first
 * write cannot join the second: read before it, the budget would count the record's last call at
 * its worst case instead of what it cost, and a run could be stopped by its own hold.
 */
export async function admitCall(
  record: SpendRecord,
  spentUsd: number,
  reserveUsd: number,
  budget: CallBudget,
): Promise<string | null> {
  const spent = roundUsd(spentUsd)
  const reserve = roundUsd(reserveUsd)
  return getDb().transaction(async (tx) => {
    await lockKey(tx, budget.lock)
    await tx.execute(spentWrite(record, spent))
    const refusal = await budget.refusal(tx)
    if (refusal === null) {
      await tx.execute(
        record.kind === 'run'
          ? sql`update job_runs set reserved_usd = ${reserve}, key_source = coalesce(key_source, ${budget.keySource})
              where id = ${record.id} and status = 'running'`
          : sql`update chat_turns set reserved_usd = ${reserve} where id = ${record.id}`,
      )
    }
    return refusal
  })
}

/** The write of a record's spending so far that a check makes before it reads the budget. */
function spentWrite(record: SpendRecord, spent: number): SQL {
  if (record.kind === 'turn') {
    return sql`update chat_turns set cost_usd = greatest(coalesce(cost_usd, 0), ${spent}), reserved_usd = 0
      where id = ${record.id}`
  }
  const { soFar } = record
  if (!soFar) {
    return sql`update job_runs set cost_usd = greatest(coalesce(cost_usd, 0), ${spent}), reserved_usd = 0
      where id = ${record.id} and status = 'running'`
  }
  // With the count the run's page shows: that, as recordRunUsageSoFar writes it, whatever the run's
  // status (a run stopped from outside keeps it); the cost the budget reads and the end of the last
  // hold, as above, only while it runs.
  return sql`update job_runs set ${raisedRunTokens(soFar)},
      cost_usd = case when status = 'running' then greatest(coalesce(cost_usd, 0), ${spent}, ${soFar.costUsd ?? 0})
        else ${raisedRunCost(soFar.costUsd)} end,
      reserved_usd = case when status = 'running' then 0 else reserved_usd end
    where id = ${record.id}`
}

/** The layout's banner: the budget and the spend while runs on the org key are paused, else null. */
export function budgetPauseOf(budget: OrgBudget): { monthlyBudgetUsd: number; spentUsd: number } | null {
  return budget.reached ? { monthlyBudgetUsd: budget.monthlyBudgetUsd!, spentUsd: budget.spentUsd } : null
}
