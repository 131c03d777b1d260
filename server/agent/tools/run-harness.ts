/**
 * `run_harness`: hands a task to a coding-agent CLI (Claude Code) inside an environment and shows
 * its progress live: each change of its transcript is a preliminary result the chat streams to the
 * step (the model never sees them), and a tool call the policy marks `ask` appears there as an
 * approval card whose answer goes to /_agent-native/harness/approvals/:id while the harness waits.
 * The final result carries the harness's steps, tokens and cost. In an unattended run `ask` is no.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { stopKeyFor } from '../../environments/providers/providers.ts'
import { openEnvironment } from '../../environments/service.ts'
import type { TranscriptPart } from '../../harness/adapter.ts'
import { openApproval } from '../../harness/approvals.ts'
import { runHarness } from '../../harness/run.ts'
import { HARNESS_IDS } from '../../jobs/field-schemas.ts'
import { adapterFor, environmentSkills, harnessMcp, modelGrant } from '../harness-grant.ts'
import { resolveModel } from '../model.ts'
import { runCap } from '../quota.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'
import { HttpError } from '../../lib/errors.ts'

const RunHarnessInput = z.strictObject({
  harness: z
    .enum(HARNESS_IDS.filter((id) => id !== 'builtin') as [string, ...string[]])
    .describe('Which coding agent does the task, e.g. claude-code'),
  environment: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/)
    .describe('The environment (environments/<name>.md) the harness works in'),
  prompt: z.string().min(1).max(60_000).describe('The task, as you would give it to a developer'),
})

/** A preliminary result: the harness's steps so far, and the approval it waits for, if any. */
export type HarnessProgress = {
  ok: true
  running: true
  steps: TranscriptPart[]
  approval?: { id: string; command: string; reason: string }
}

/** Minutes a harness task in chat may take. */
const CHAT_TIMEOUT_SECONDS = 30 * 60
/** How long a card waits for the person before it counts as a no. */
const APPROVAL_MS = 10 * 60 * 1000

export const RUN_HARNESS_DESCRIPTION =
  'Hand a coding task to a coding agent (harness, e.g. claude-code) working in an environment folder: ' +
  'it edits files and runs commands there under the same policy as run_command. Returns its steps, ' +
  'final answer, tokens and cost.'

export function createRunHarnessTool(ctx: ToolContext) {
  return tool({
    description: RUN_HARNESS_DESCRIPTION,
    inputSchema: RunHarnessInput,
    execute: async function* (input, { abortSignal }) {
      const state: { steps: TranscriptPart[]; approval?: HarnessProgress['approval'] } = { steps: [] }
      let wake = () => {}
      let changed = false
      const poke = () => {
        changed = true
        wake()
      }
      const work = start(ctx, input, abortSignal, state, poke)
      let finished = false
      void work.finally(() => {
        finished = true
        wake()
      })
      while (!finished) {
        if (!changed) await new Promise<void>((resolve) => (wake = resolve))
        if (changed && !finished) {
          changed = false
          yield {
            ok: true as const,
            running: true as const,
            steps: [...state.steps],
            approval: state.approval,
          }
        }
      }
      // The last value yielded is the final result (the AI SDK ignores a generator's return value).
      yield await work
    },
  })
}

async function start(...args: Parameters<typeof startHarness>) {
  const { runSpend } = args[0]
  try {
    // One harness of a run (or chat turn) at a time, so each reads what the cap leaves and writes
    // the budget's record with what the others spent (decision 0518).
    const harness = () => startHarness(...args)
    return await (runSpend ? runSpend.inHarnessTurn(harness) : harness())
  } catch (err) {
    return toToolFailure(err, 'run_harness')
  }
}

async function startHarness(
  ctx: ToolContext,
  input: z.infer<typeof RunHarnessInput>,
  signal: AbortSignal | undefined,
  state: { steps: TranscriptPart[]; approval?: HarnessProgress['approval'] },
  poke: () => void,
) {
  // Stopped while an earlier harness of the step had its turn: this one does not start.
  if (signal?.aborted) throw new HttpError(409, 'run_stopped', 'Stopped before the harness started')
  // In a run, the run's key and what its cap leaves (its spending is the run's); in chat, the
  // person's own key, else the deployment's (with the server's cap), the same rule as the chat.
  const resolved =
    ctx.runSpend?.resolved ??
    (await resolveModel({ kind: 'chat', userId: ctx.caller.userId, orgId: ctx.caller.orgId }))
  // The whole cap goes to the harness with what the run had spent (modelGrant), so a stop names
  // the cap and the run's whole cost; what is left decides whether a harness may start at all.
  const cap = ctx.runSpend ? ctx.runSpend.cap : runCap(resolved.keySource, null)
  const left = ctx.runSpend ? ctx.runSpend.capLeft() : cap
  if (left && left.usd <= 0) {
    throw new HttpError(
      403,
      'over_cap',
      left.rule === 'job'
        ? "The run has spent its job's cap (maxCostUsd): no harness can start"
        : "The run has spent this server's cap per run on its own model key (DEPLOYMENT_KEY_MAX_RUN_COST_USD): no harness can start",
    )
  }
  const adapter = adapterFor(input.harness, resolved)
  const opened = await openEnvironment(ctx.caller, input.environment, 'use', { runId: ctx.runId })
  const [skills, mcp] = await Promise.all([
    environmentSkills(ctx.caller.orgId, opened.definition.skills),
    harnessMcp(ctx.caller, null),
  ])
  const outcome = await runHarness({
    adapter,
    caller: ctx.caller,
    opened,
    prompt: input.prompt,
    mode: ctx.mode,
    origin: {
      runId: ctx.runId,
      threadId: ctx.threadId,
      stopKey: stopKeyFor({ runId: ctx.runId, threadId: ctx.threadId, turnId: ctx.turnId }),
    },
    grant: {
      ...modelGrant(resolved, {
        orgId: ctx.caller.orgId,
        cap,
        record: ctx.runSpend?.record,
        spentBeforeUsd: ctx.runSpend?.spentUsd(),
      }),
      onSpent: ctx.runSpend?.showHarness,
    },
    modelId: resolved.choice.modelId,
    skills,
    mcp,
    signal: signal ?? new AbortController().signal,
    timeoutSeconds: CHAT_TIMEOUT_SECONDS,
    approve: async (ask) => {
      const { id, answer } = openApproval(ctx.caller.userId, APPROVAL_MS, signal)
      state.approval = { id, ...ask }
      poke()
      const approved = await answer
      state.approval = undefined
      poke()
      return approved
    },
    onProgress: (parts) => {
      state.steps = parts
      poke()
    },
  })
  ctx.runSpend?.add(outcome.usage)
  return {
    ok: !outcome.failure,
    harness: adapter.id,
    environment: opened.row.name,
    steps: outcome.parts,
    usage: outcome.usage,
    ...(outcome.failure ? { error: { status: 500, code: 'harness_failed', message: outcome.failure } } : {}),
  }
}
