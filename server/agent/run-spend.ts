/**
 * What a job run spends: its own agent steps (metered from the model's usage, priced by the table)
 * and the harnesses it starts with run_harness (metered by their endpoint, on the run's key). Both
 * count towards the job's cap and both are the run's recorded tokens and cost, so the cap, the
 * organisation's budget and the usage report see a harness's spending as the run's.
 */
import { createCostCap } from './budget.ts'
import { createUsageMeter, type ConversationTools } from './loop.ts'
import type { ResolvedModel } from './model.ts'
import { estimateCostUsd } from './pricing.ts'
import type { RunSpend } from './tool-context.ts'
import type { StepResult } from 'ai'

export function createRunSpend(resolved: ResolvedModel, capUsd: number | null) {
  const meter = createUsageMeter()
  // What the run's harnesses spent, the one count the cap reads. A harness whose cost is unknown
  // makes the run's cost unknown (`unpriced`); what is known still counts towards the cap.
  const harnesses = { inputTokens: 0, outputTokens: 0, costUsd: 0, unpriced: false }
  const ownUsd = () => estimateCostUsd(resolved.choice, meter.total)
  // The cap reads what the run has recorded, so it prices cached tokens as the record does.
  const cap = createCostCap(capUsd, () => {
    const own = ownUsd()
    return own === null ? null : own + harnesses.costUsd
  })
  const shared: RunSpend = {
    resolved,
    capLeftUsd: () => cap.left(),
    add(usage) {
      harnesses.inputTokens += usage.inputTokens
      harnesses.outputTokens += usage.outputTokens
      if (usage.costUsd === null) harnesses.unpriced = true
      else harnesses.costUsd += usage.costUsd
    },
  }
  return {
    cap,
    shared,
    /** Counts one finished agent step. */
    step(step: StepResult<ConversationTools>) {
      meter.add(step)
      cap.record()
    },
    /** The run's tokens and cost: its own steps and its harnesses' (null cost when either is unknown). */
    usage() {
      const own = ownUsd()
      return {
        inputTokens: meter.total.inputTokens + harnesses.inputTokens,
        outputTokens: meter.total.outputTokens + harnesses.outputTokens,
        costUsd:
          own === null || harnesses.unpriced ? null : Math.round((own + harnesses.costUsd) * 1e6) / 1e6,
      }
    },
  }
}
