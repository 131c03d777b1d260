/**
 * What a job run spends: its own agent steps (metered from the model's usage, priced by the table)
 * and the harnesses it starts with run_harness (metered by their endpoint, on the run's key). Both
 * count towards the job's cap and both are the run's recorded tokens and cost, so the cap, the
 * organisation's budget and the usage report see a harness's spending as the run's.
 */
import { inTurn } from '../lib/in-turn.ts'
import { runBudgetRefusal, type SpendRecord } from '../runs/budget.ts'
import { recordRunUsageSoFar, type RunUsageSoFar } from '../runs/store.ts'
import { roundUsd } from '../runs/usage.ts'
import { deploymentBudgetRefusal } from '../runs/deployment-budget.ts'
import { callReserveUsd, createBudgetStop, createCostCap } from './budget.ts'
import { createUsageMeter, type ConversationTools } from './loop.ts'
import type { ResolvedModel } from './model.ts'
import { estimateCostUsd } from './pricing.ts'
import { runCap } from './quota.ts'
import type { RunSpend } from './tool-context.ts'
import type { StepResult } from 'ai'

/**
 * @param run the run (or chat turn, `kind: 'turn'`) and its organisation: on the organisation's key
 *   (`resolved.keySource` 'org') its monthly budget stops the run between steps as the cap does, and
 *   on the deployment's key the server's daily budget does.
 */
export function createRunSpend(
  resolved: ResolvedModel,
  jobCapUsd: number | null,
  run: { id: string; orgId: string; kind?: SpendRecord['kind'] },
) {
  const meter = createUsageMeter((call) => estimateCostUsd(resolved.choice, call))
  // What the run's harnesses spent, the one count the cap reads. A harness whose cost is unknown
  // makes the run's cost unknown (`unpriced`); what is known still counts towards the cap.
  const harnesses = { inputTokens: 0, outputTokens: 0, costUsd: 0, unpriced: false }
  const ownUsd = () => meter.total.costUsd
  // The cap and the budget read what the run has recorded, so they price each call as the record
  // does (its cache reads and writes, its size).
  const spentUsd = () => {
    const own = ownUsd()
    return own === null ? null : own + harnesses.costUsd
  }
  const capped = runCap(resolved.keySource, jobCapUsd)
  const cap = createCostCap(capped, spentUsd)
  const record: SpendRecord = { kind: run.kind ?? 'run', id: run.id }
  const model = `${resolved.choice.provider}:${resolved.choice.modelId}`
  // The last step's tokens: the next call carries them, so its worst case counts them as input.
  let last: { inputTokens: number; outputTokens: number } | undefined
  const reserve = () => callReserveUsd(resolved.choice, last)
  // A run's last step is not on its record yet. The budget's check before the next call writes it
  // with the cost that check reads (admitCall), so a step's spending reaches the record in one
  // write; with no check after it (no budget, the cap crossed, the last step) `writeSoFar` does.
  let unwritten = false
  const soFar = (): RunUsageSoFar => ({ ...usage(), model })
  /** Asks `refuse`, giving it the run's count when its record lacks the last step's. */
  const withSoFar = async (refuse: (count: RunUsageSoFar | undefined) => Promise<string | null>) => {
    const count = unwritten ? soFar() : undefined
    const refusal = await refuse(count)
    if (count) unwritten = false
    return refusal
  }
  const budget =
    resolved.keySource === 'org'
      ? createBudgetStop(
          (spent, held) => withSoFar((count) => runBudgetRefusal(run.orgId, run.id, spent, held, count)),
          spentUsd,
          reserve,
        )
      : resolved.keySource === 'deployment'
        ? createBudgetStop(
            (spent, held) =>
              withSoFar((count) =>
                deploymentBudgetRefusal({ ...record, soFar: count }, spent, undefined, held),
              ),
            spentUsd,
            reserve,
          )
        : null
  const shared: RunSpend = {
    resolved,
    record,
    cap: capped,
    capLeft: () => {
      const left = cap.left()
      return capped && left !== null ? { ...capped, usd: left } : null
    },
    spentUsd: () => spentUsd() ?? 0,
    add(usage) {
      harnesses.inputTokens += usage.inputTokens
      harnesses.outputTokens += usage.outputTokens
      if (usage.costUsd === null) harnesses.unpriced = true
      else harnesses.costUsd += usage.costUsd
    },
    inHarnessTurn: (work) => inTurn(`harnesses:${record.kind}:${record.id}`, work),
    showHarness(soFar) {
      // A chat turn's record has no page to show it on while it goes; it is settled at its end.
      if (record.kind !== 'run') return
      const so = usage()
      const costUsd =
        so.costUsd === null || soFar.costUsd === null ? null : roundUsd(so.costUsd + soFar.costUsd)
      const inputTokens = so.inputTokens + soFar.inputTokens
      const outputTokens = so.outputTokens + soFar.outputTokens
      // A failed write loses only that look: the harness's end is counted with the step's.
      void recordRunUsageSoFar(record.id, { inputTokens, outputTokens, costUsd, model }).catch(() => {})
    },
  }
  return {
    shared,
    /** The model as the run's record names it. */
    model,
    /** The loop's stop after a step: the cap crossed, or the budget of its key reached. */
    async stopAfterStep(steps: number): Promise<boolean> {
      const stop = cap.crossed() || ((await budget?.reached(steps)) ?? false)
      await writeSoFar()
      return stop
    },
    writeSoFar,
    /** Why the run was stopped for money, or null. */
    failure: () => cap.failure() ?? budget?.failure() ?? null,
    /**
     * Counts one finished agent step (its model call is no longer unfinished). A run's record has
     * it after the check before its next call ({@link stopAfterStep}), or {@link writeSoFar}.
     */
    step(step: StepResult<ConversationTools>) {
      meter.add(step)
      resolved.calls.settle()
      last = { inputTokens: step.usage.inputTokens ?? 0, outputTokens: step.usage.outputTokens ?? 0 }
      cap.record()
      // A chat turn's record has no page to show it on while it goes; it is settled at its end.
      unwritten = record.kind === 'run'
    },
    usage,
    /**
     * The tokens and cost as the run or turn ends: {@link usage} and the model calls no finished
     * step counted, the one it was making when it was stopped (decision 0533), each priced alone.
     */
    final() {
      const unfinished = resolved.calls.unsettled()
      const so = usage()
      const prices = unfinished.map((call) => estimateCostUsd(resolved.choice, call))
      return {
        inputTokens: unfinished.reduce((n, call) => n + call.inputTokens, so.inputTokens),
        outputTokens: unfinished.reduce((n, call) => n + call.outputTokens, so.outputTokens),
        costUsd:
          so.costUsd === null || prices.includes(null)
            ? null
            : roundUsd(prices.reduce((n: number, usd) => n + usd!, so.costUsd)),
      }
    },
  }

  /**
   * Writes the run's count on its record, for its page while it runs, when its last step's is not
   * there yet. A failed write loses only that look: the run's end writes what it spent.
   */
  async function writeSoFar() {
    if (!unwritten) return
    unwritten = false
    await recordRunUsageSoFar(record.id, soFar()).catch(() => {})
  }

  /** The run's tokens and cost: its own steps and its harnesses' (null cost when either is unknown). */
  function usage() {
    const own = ownUsd()
    return {
      inputTokens: meter.total.inputTokens + harnesses.inputTokens,
      outputTokens: meter.total.outputTokens + harnesses.outputTokens,
      costUsd: own === null || harnesses.unpriced ? null : roundUsd(own + harnesses.costUsd),
    }
  }
}
