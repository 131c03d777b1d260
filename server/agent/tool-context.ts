/**
 * What every tool knows about the conversation it serves. Tools call the same services as the
 * HTTP API with `caller`, so the agent can do exactly what that person can, nothing more.
 */
import type { Caller } from '../auth/caller.ts'
import type { ResolvedModel } from './model.ts'
import type { RunCap } from '../runs/budget.ts'
import type { OrgSettings } from '../accounts/org-settings-schema.ts'
import type { CliDescription } from '../cli/registry.ts'
import { badFields, HttpError, type FieldProblem } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { unstorableProblems } from '../lib/validate.ts'
import type { SpendRecord } from '../runs/budget.ts'

/** `chat`: a person is there to confirm; `run`: an unattended job run (destructive actions refused). */
export type AgentMode = 'chat' | 'run'

export type ToolContext = {
  caller: Caller
  mode: AgentMode
  /** In a run: whether the job opted in to its runs creating and changing jobs (`agentMayEditJobs`). */
  mayEditJobs?: boolean
  /** The zone times are told in when the model names none: the job's in a run, else the person's. */
  timezone?: string
  /** Injectable for tests; the wall clock otherwise. */
  now?: () => Date
  /** Read once per conversation (see loadExecution): which execution tools this org allows. */
  execution?: ExecutionContext
  /** The chat thread or job run the conversation belongs to (recorded in environments' audit). */
  threadId?: string
  runId?: string
  /** In chat: this turn's id, so stopping it stops its commands without blocking the next turn. */
  turnId?: string
  /** The job's environment in a run: the default of the environment tools (else `scratch`). */
  environment?: string | null
  /** In a run: whether the job has notify targets (send_notification can post to nothing else). */
  hasNotifyTargets?: boolean
  /** Its model access and spending (a run's, or a chat turn's), which a harness it starts shares (run_harness). */
  runSpend?: RunSpend
}

/**
 * A run's model access and what it has spent. A harness the run starts spends the run's key (the
 * job's `runAs`, under the organisation's budget when that is the org's), within what the job's
 * cap leaves, and its tokens and cost are the run's: the cap, the budget and the usage report see
 * them. A chat turn has the same (createRunSpend with the turn for the run): its harness spends the
 * person's own key, as the chat does, else the deployment's under the turn's cap (decision 0454).
 */
export type RunSpend = {
  resolved: ResolvedModel
  /** The run or chat turn whose record holds this spending: a harness it starts writes there too. */
  record: SpendRecord
  /** The run's cap (quota.ts `runCap`), or null. */
  cap: RunCap | null
  /** What the run's cap leaves now; null without a cap (or a price). */
  capLeft: () => RunCap | null
  /** USD the run has spent so far (its steps and harnesses), not yet in its record; 0 unpriced. */
  spentUsd: () => number
  /** Adds what a harness spent to the run's usage and to its cap. */
  add: (usage: { inputTokens: number; outputTokens: number; costUsd: number | null }) => void
  /**
   * Runs `work` (one harness, from its look at what the cap leaves to its spending added) once the
   * run's earlier harnesses have ended: harnesses started in one step (the model's tool calls run
   * at once) each read the cap before the others had spent, and each spent it whole (decision 0518).
   */
  inHarnessTurn: <T>(work: () => Promise<T>) => Promise<T>
  /**
   * What the harness going on has spent so far, told as each of its calls ends: a run's record
   * shows it with the run's own spending while the harness runs; `add` counts it when it ends.
   */
  showHarness: (soFar: { inputTokens: number; outputTokens: number; costUsd: number | null }) => void
}

/**
 * The org's switches for run-code and cli, the CLIs this server offers, and whether the caller can
 * see any environment definition (run_harness works only in a named environment).
 */
export type ExecutionContext = { settings: OrgSettings; clis: CliDescription[]; hasEnvironments?: boolean }

/** A failed tool call as the model (and the chat UI) sees it: the same status and message as the API. */
export type ToolFailure = {
  ok: false
  error: { status: number; code: string; message: string; field?: string; fields?: FieldProblem[] }
}

/**
 * Turns a thrown error into a tool result the model can read and act on. Errors a caller causes
 * keep their status and message (a 403 stays a 403); anything else is logged and stays generic.
 */
export function toToolFailure(err: unknown, tool: string): ToolFailure {
  if (err instanceof HttpError) {
    return {
      ok: false,
      error: {
        status: err.status,
        code: err.code,
        message: err.message,
        ...(err.field ? { field: err.field } : {}),
        ...(err.fields?.length ? { fields: err.fields } : {}),
      },
    }
  }
  logger.error({ err, tool }, 'agent tool failed')
  return { ok: false, error: { status: 500, code: 'internal', message: 'Something went wrong on our side' } }
}

/**
 * A tool call whose arguments hold text PostgreSQL cannot take (a NUL in an id, a cursor, or text
 * to be stored or audited), as the 400 naming every such argument the API answers; the call would
 * otherwise fail as a 500 at its first query. Null when the arguments are fine. Every tool call of
 * the agent is checked before it runs; an MCP client's arguments are checked with their schema,
 * which looks for such text too (lib/validate.ts checkInput).
 */
export function unstorableArgumentFailure(args: unknown, tool: string): ToolFailure | null {
  const problems = unstorableProblems(args)
  return problems.length ? toToolFailure(badFields(problems), tool) : null
}
