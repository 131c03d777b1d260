/**
 * Job runs as agent conversations: the scheduler's RunExecutor. The scheduler has already made
 * the run's thread (owned by the run-as user, the instructions as its first message); this runs
 * the agent loop with the same tools as chat under the unattended rules, and hands back the reply
 * (text, tool calls and results as UI message parts), the token usage and an estimated cost.
 */
import { readUIMessageStream, type UIMessage } from 'ai'
import {
  type ExecutorMessage,
  type RunContext,
  RunFailure,
  RunSkipped,
  type RunExecutor,
  type RunResult,
} from '../runs/executor.ts'
import { getJob } from '../jobs/service.ts'
import { isNotFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { type ConversationTools, RUN_MAX_STEPS, startAgentLoop } from './loop.ts'
import { describeModelError } from './model-errors.ts'
import { resolveModel, type ResolvedModel } from './model.ts'
import { loadRunCaller } from './run-caller.ts'
import { buildRunSystemPrompt, withContext, type SystemPrompt } from './system-prompt.ts'
import { loadExecution } from './execution.ts'
import { createAgentTools } from './tools/index.ts'
import { loadMcpTools, withMcpNote } from './mcp-tools.ts'
import { whileMember } from './while-member.ts'
import { loadRunSkills, skippedSkillsNote, withSkills } from './job-skills.ts'
import { deploymentRunRefusal } from './quota.ts'
import { deploymentBudgetRefusal } from '../runs/deployment-budget.ts'
import { recordRunKeySource, recordRunUsageSoFar } from '../runs/store.ts'
import { logger } from '../lib/logger.ts'
import { runBudgetRefusal } from '../runs/budget.ts'
import { callReserveUsd } from './budget.ts'
import { createRunSpend } from './run-spend.ts'
import { stopCommands } from '../environments/providers/providers.ts'
import { removeRunScratch } from '../environments/operations/run-scratch.ts'
import { runJobInHarness } from './harness-job.ts'

async function resolveRunModel(...args: Parameters<typeof resolveModel>): Promise<ResolvedModel> {
  try {
    return await resolveModel(...args)
  } catch (err) {
    throw new RunFailure(describeModelError(err))
  }
}

/** The executor main.ts passes to the scheduler for every run. */
export function createAgentExecutor(): RunExecutor {
  return async ({ run, job, runAsUserId, signal, progress }) => {
    const caller = await loadRunCaller(runAsUserId, job.orgId)
    if (!caller) {
      throw new RunFailure(
        'The person this job runs as is no longer a member of the organisation; an admin must take the job over.',
      )
    }
    const resolved = await resolveRunModel({
      kind: 'run',
      runAs: job.runAs,
      userId: caller.userId,
      orgId: job.orgId,
    })
    // A refused run spends nothing, so it is not recorded as using the key (nor counted).
    if (resolved.keySource === 'deployment') {
      const refusal = await deploymentRunRefusal(job.orgId, run.id)
      if (refusal) throw new RunFailure(refusal)
      // The server's daily budget on its key pauses every such run, as an org's budget does on its own.
      // Its first model call is held for as its checks between steps hold the next (decision 0480).
      const first = callReserveUsd(resolved.choice)
      const paused = await deploymentBudgetRefusal({ kind: 'run', id: run.id }, 0, undefined, first)
      if (paused) throw new RunSkipped(paused)
    }
    // The org's monthly budget pauses runs on its key: skipped with the reason, never silently.
    if (resolved.keySource === 'org') {
      const paused = await runBudgetRefusal(job.orgId, run.id, 0, callReserveUsd(resolved.choice))
      if (paused) throw new RunSkipped(paused)
    }
    await recordRunKeySource(run.id, resolved.keySource)
    // Read through the jobs service as the run-as user: the prompt names the schedule in words.
    const view = await getJob(caller, job.id).catch((err: unknown) => {
      if (isNotFound(err)) throw new RunFailure('The job is no longer visible to the person it runs as.')
      throw err
    })
    if (job.harness !== 'builtin') return runJobInHarness({ caller, job, run, resolved, signal, progress })
    // "Now" in a run means now where the job lives: its schedule is read in that zone.
    const [execution, mcp, skills] = await Promise.all([
      loadExecution(caller),
      // Only the MCP servers the job names (none when it names none): each server's tools would
      // otherwise be in every model call of every run.
      loadMcpTools(caller, job.mcp ?? []),
      loadRunSkills(job.orgId, job.skills),
    ])
    const spend = createRunSpend(resolved, job.maxCostUsd, { id: run.id, orgId: job.orgId })
    const builtIn = createAgentTools({
      caller,
      mode: 'run',
      timezone: view.timezone,
      runId: run.id,
      environment: job.environment,
      mayEditJobs: job.agentMayEditJobs,
      hasNotifyTargets: Boolean(view.notify?.onSuccess?.length || view.notify?.onFailure?.length),
      execution,
      runSpend: spend.shared,
    })
    const tools = whileMember(caller, { ...builtIn, ...mcp.tools })
    // A cancel, a timeout or a lost lease aborts the run: its commands on machines stop too.
    const stop = () => void stopCommands({ runId: run.id }).catch(() => {})
    signal.addEventListener('abort', stop, { once: true })
    try {
      const system = withContext(buildRunSystemPrompt(caller, view, run.scheduledFor, new Date()), (c) =>
        withSkills(withMcpNote(c, mcp), skills),
      )
      return await converse({
        system,
        notes: skippedSkillsNote(skills),
        tools,
        resolved,
        instructions: job.instructions,
        spend,
        signal,
        progress,
      })
    } finally {
      signal.removeEventListener('abort', stop)
      await removeRunScratch({ orgId: job.orgId, userId: caller.userId, runId: run.id })
    }
  }
}

/**
 * The run's agent conversation: the loop, its usage and cost, its transcript (after `notes`, system
 * lines for people reading the run, such as skills left out).
 */
async function converse({
  system,
  notes,
  tools,
  resolved,
  instructions,
  spend,
  signal,
  progress,
}: {
  system: SystemPrompt
  notes: ExecutorMessage[]
  tools: ConversationTools
  resolved: ResolvedModel
  instructions: string
  spend: ReturnType<typeof createRunSpend>
  signal: AbortSignal
  progress: RunContext['progress']
}): Promise<RunResult> {
  let failure: unknown = null
  const { model } = spend
  const result = startAgentLoop({
    model: resolved.model,
    system,
    messages: [{ role: 'user', content: instructions }],
    tools,
    maxSteps: RUN_MAX_STEPS,
    signal,
    // Its tokens and cost reach the run's page with the check before the next call (run-spend.ts).
    onStepFinish: (step) => spend.step(step),
    stopAfterStep: spend.stopAfterStep,
    onError: (err) => (failure ??= err),
  })
  let reply: UIMessage | null = null
  const stream = result.toUIMessageStream({
    generateMessageId: () => newId('msg'),
    onFinish: ({ responseMessage }) => {
      reply = responseMessage
    },
    // Called for every tool call that failed too (an unknown tool, bad input), whose error goes
    // back to the model as that call's result: the run fails only on the loop's own error above.
    onError: (err) => describeModelError(err, [resolved.apiKey]),
  })
  // The reply as it grows, for the run's page while it runs (its errors are the loop's, above).
  for await (const message of readUIMessageStream({ stream, onError: () => {} })) {
    progress?.([...notes, { role: 'assistant', parts: message.parts as ExecutorMessage['parts'] }])
  }
  // The call it was making when it was stopped counts too: the provider has billed it (0533).
  const { inputTokens, outputTokens, costUsd } = spend.final()
  const usage = {
    inputTokens,
    outputTokens,
    costUsd: costUsd ?? undefined,
    model,
  }
  // Stopped from outside, the run was settled without this answer: what it spent is written here.
  if (signal.aborted)
    await recordRunUsageSoFar(spend.shared.record.id, { inputTokens, outputTokens, costUsd, model }).catch(
      (err: unknown) =>
        logger.warn({ err, runId: spend.shared.record.id }, 'could not record what a stopped run spent'),
    )
  // Else its last step, which no check before a next call wrote, is on its page until it is settled.
  else await spend.writeSoFar()
  const parts = (reply as UIMessage | null)?.parts ?? []
  const said: ExecutorMessage[] = parts.length ? [{ role: 'assistant', parts }] : []
  const outcome: RunResult = { transcript: [...notes, ...said], usage }
  const stopped = spend.failure()
  if (stopped) throw new RunFailure(stopped, outcome)
  if (failure) throw new RunFailure(describeModelError(failure, [resolved.apiKey]), outcome)
  return outcome
}
