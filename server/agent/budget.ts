/**
 * What stops a run between its agent steps for money. A job's cost cap per run (`maxCostUsd`, on
 * the deployment's key never above the server's, quota.ts `runCap`):
 * after every agent step the run's spending so far is read, priced as its recorded cost is (cache
 * reads and writes at their rates), and once it is more than the cap the loop stops before the
 * next step. A model without a known price has no cost, so its runs cannot be capped
 * (docs/decisions/0071-a-cost-cap-per-run.md). And a budget: the organisation's monthly one for a
 * run on its key (decision 0434), the server's daily one for a run on the deployment's (0455).
 */
import { CALL_OUTPUT_RESERVE_TOKENS, overCap, usd, type RunCap } from '../runs/budget.ts'
import type { ModelChoice } from './model.ts'
import { estimateCostUsd } from './pricing.ts'

/**
 * What a budget holds for a run's next model call, its worst case (decision 0480): the previous
 * call's input and output again as input (the next call carries them), and the most output a call
 * is held for. Nothing for a model without a price: its runs are not counted at all.
 */
export function callReserveUsd(choice: ModelChoice, last?: { inputTokens: number; outputTokens: number }) {
  const inputTokens = last ? last.inputTokens + last.outputTokens : 0
  return estimateCostUsd(choice, { inputTokens, outputTokens: CALL_OUTPUT_RESERVE_TOKENS }) ?? 0
}

export type CostCap = {
  /** Counts one finished step (onStepFinish), after the run's spending has counted it. */
  record: () => void
  /** USD left under the cap now; null without a cap or a price. */
  left: () => number | null
  /** A stopWhen condition for the agent loop: true once the steps so far cost more than the cap. */
  crossed: () => boolean
  /** The run's error when the cap was crossed, else null. */
  failure: () => string | null
}

/**
 * @param spentUsd what the run has spent so far, its own steps and the harnesses it started (the
 *   run's spending keeps the count, run-spend.ts); null while it has no price. It is read at every
 *   check, so a harness counts at the end of the step that ran it, like any tool's work.
 */
export function createCostCap(cap: RunCap | null, spentUsd: () => number | null): CostCap {
  const capUsd = cap?.usd ?? null
  let steps = 0
  let crossedAt: { step: number; costUsd: number } | null = null
  return {
    record() {
      steps += 1
      if (capUsd === null || crossedAt) return
      const cost = spentUsd()
      if (cost !== null && cost > capUsd) crossedAt = { step: steps, costUsd: cost }
    },
    left() {
      const cost = spentUsd()
      return capUsd === null || cost === null ? null : Math.max(0, capUsd - cost)
    },
    crossed: () => crossedAt !== null,
    failure() {
      if (!crossedAt || !cap) return null
      return `Stopped: the run cost ${usd(crossedAt.costUsd)} after step ${crossedAt.step}, ${overCap(cap)}`
    },
  }
}

export type BudgetStop = {
  /**
   * A stopWhen condition, asked after step `step` when the loop would go on: true once the month's
   * spend, this run's and that of the runs going at the same time included, reaches the budget.
   */
  reached: (step: number) => Promise<boolean>
  /** The run's error when the budget stopped it, else null. */
  failure: () => string | null
}

/**
 * A budget checked before each next step of a run: the organisation's monthly one on its own key,
 * or the server's daily one on the deployment's key. The start of a run is not enough, as one run
 * of many costly steps could spend a budget many times over. `refuse` is given what the run has
 * spent so far (`spentUsd`, 0 while unpriced: nothing known to write) and the worst case of its
 * next call (`reserveUsd`); it writes the one and holds the other on the run's record, where the
 * checks of other runs see them, and answers why the budget stops the run, or null (decisions
 * 0444, 0455, 0480).
 */
export function createBudgetStop(
  refuse: (spentUsd: number, reserveUsd: number) => Promise<string | null>,
  spentUsd: () => number | null,
  reserveUsd: () => number,
): BudgetStop {
  let stopped: { step: number; reason: string } | null = null
  return {
    async reached(step) {
      stopped ??= await refuse(spentUsd() ?? 0, reserveUsd()).then((reason) =>
        reason === null ? null : { step, reason },
      )
      return stopped !== null
    },
    failure: () => (stopped ? `Stopped after step ${stopped.step}. ${stopped.reason}` : null),
  }
}
