/**
 * The deployment's daily budget (`DEPLOYMENT_KEY_MAX_USD_PER_DAY`): what runs and chat turns of every
 * organisation together may spend on the server's own model key in a rolling 24 hours. The limits
 * per organisation bound one tenant; with open sign-up anyone can make more organisations, so this
 * is the bound on the operator's bill (decision 0455). Checked before a run or a turn starts and
 * before each next step or harness call, as the organisation's monthly budget is on its own key.
 */
import { sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import { env } from '../env.ts'
import { admitCall, usd, type SpendRecord } from './budget.ts'
import { deletedSpendUsd } from './deleted-spend.ts'
import { roundUsd, spentAndHeld } from './usage.ts'

/**
 * USD every run and chat turn on the deployment's key spent in the last 24 hours, deleted ones
 * included (decision 0520).
 */
export async function sumDeploymentKeySpendToday(db: Db = getDb()): Promise<number> {
  const since = sql`now() - interval '24 hours'`
  const [row] = await queryRows<{ usd: number | string | null }>(
    db,
    sql`select
          (select coalesce(sum(${spentAndHeld}), 0) from job_runs
            where key_source = 'deployment' and started_at > ${since})
        + (select coalesce(sum(coalesce(cost_usd, 0) + reserved_usd), 0) from chat_turns
            where key_source = 'deployment' and started_at > ${since})
        + ${deletedSpendUsd({ keySource: 'deployment', since })} as usd`,
  )
  return Number(row?.usd ?? 0)
}

/**
 * Why a run or a turn on the deployment's key must not start, or go on, now; null when it may.
 * A run's or a turn's next model call is admitted under the budget's lock, holding `reserveUsd`
 * (the call's worst case) while it goes (budget.ts `admitCall`), so runs and turns going at once
 * count each other's calls before they are paid for (decisions 0480, 0496). Without a record (a
 * harness started outside either) `spentUsd` is added to the sum unwritten.
 */
export async function deploymentBudgetRefusal(
  record: SpendRecord | null,
  spentUsd = 0,
  db: Db = getDb(),
  reserveUsd = 0,
): Promise<string | null> {
  if (record) {
    return admitCall(record, spentUsd, reserveUsd, {
      lock: DEPLOYMENT_BUDGET_LOCK,
      keySource: 'deployment',
      refusal: (tx) => deploymentBudgetRefusal(null, 0, tx),
    })
  }
  const limit = env().DEPLOYMENT_KEY_MAX_USD_PER_DAY
  const today = (await sumDeploymentKeySpendToday(db)) + roundUsd(spentUsd)
  if (today < limit) return null
  return (
    `Paused: this server's daily budget of ${usd(limit)} for its own model key is reached ` +
    `(${usd(today)} spent in the last 24 hours by everyone on it). Add the organisation's own key, or ` +
    'your own, under Settings → Models to go on, or ask the operator to raise DEPLOYMENT_KEY_MAX_USD_PER_DAY.'
  )
}

/** The lock every admission against the deployment's daily budget takes. */
export const DEPLOYMENT_BUDGET_LOCK = 'budget:deployment'
