/**
 * A job's cost cap per run (`maxCostUsd`): after every agent step the run's tokens so far are
 * priced, and once they cost more than the cap the loop stops before the next step. A model
 * without a known price has no cost, so its runs cannot be capped (docs/decisions/0071-a-cost-cap-per-run.md).
 */
import { estimateCostUsd } from './pricing.ts'
import type { ModelChoice } from './model.ts'
import { usd } from '../runs/budget.ts'

type StepUsage = { usage: { inputTokens?: number; outputTokens?: number } }

export type CostCap = {
  /** Counts one finished step (onStepFinish). */
  record: (step: StepUsage) => void
  /** USD left under the cap now; null without a cap or a price. */
  left: () => number | null
  /** A stopWhen condition for the agent loop: true once the steps so far cost more than the cap. */
  crossed: () => boolean
  /** The run's error when the cap was crossed, else null. */
  failure: () => string | null
}

/**
 * @param spentElsewhereUsd what the run has spent outside its own steps so far (the harnesses it
 *   started, metered by their own endpoint; the run's spending keeps the count). It is read at every
 *   check, so a harness counts at the end of the step that ran it, like any tool's work.
 */
export function createCostCap(
  choice: ModelChoice,
  capUsd: number | null,
  spentElsewhereUsd: () => number,
): CostCap {
  const total = { inputTokens: 0, outputTokens: 0 }
  let steps = 0
  let crossedAt: { step: number; costUsd: number } | null = null
  const spent = () => {
    const own = estimateCostUsd(choice, total)
    return own === null ? null : own + spentElsewhereUsd()
  }
  return {
    record(step) {
      steps += 1
      total.inputTokens += step.usage.inputTokens ?? 0
      total.outputTokens += step.usage.outputTokens ?? 0
      if (capUsd === null || crossedAt) return
      const cost = spent()
      if (cost !== null && cost > capUsd) crossedAt = { step: steps, costUsd: cost }
    },
    left() {
      const cost = spent()
      return capUsd === null || cost === null ? null : Math.max(0, capUsd - cost)
    },
    crossed: () => crossedAt !== null,
    failure() {
      if (!crossedAt || capUsd === null) return null
      return (
        `Stopped: the run cost ${usd(crossedAt.costUsd)} after step ${crossedAt.step}, over the job's cap of ` +
        `${usd(capUsd)} per run (maxCostUsd). Raise the cap on the job's Definition tab or make the job do less.`
      )
    },
  }
}
