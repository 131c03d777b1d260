/**
 * A job run whose `harness` is a coding-agent CLI: the job's instructions become the harness's
 * prompt in the job's environment, unattended (the policy's `ask` means no). Its steps become the
 * run's transcript, its metered calls the run's tokens and cost; a failure keeps both.
 */
import type { Caller } from '../auth/caller.ts'
import { openEnvironment } from '../environments/service.ts'
import { runHarness } from '../harness/run.ts'
import { HttpError } from '../lib/errors.ts'
import { RunFailure, type ExecutorMessage, type RunContext, type RunResult } from '../runs/executor.ts'
import type { RunJob } from '../runs/run-job.ts'
import type { RunRow } from '../runs/schema.ts'
import { recordRunUsageSoFar } from '../runs/store.ts'
import { adapterFor, environmentSkills, harnessMcp, modelGrant } from './harness-grant.ts'
import { loadRunSkills } from './job-skills.ts'
import type { ResolvedModel } from './model.ts'
import { runCap } from './quota.ts'

export async function runJobInHarness(ctx: {
  caller: Caller
  job: RunJob
  run: RunRow
  resolved: ResolvedModel
  signal: AbortSignal
  progress?: RunContext['progress']
}): Promise<RunResult> {
  const { caller, job, run, resolved } = ctx
  const prepared = await prepare(ctx).catch((err: unknown) => {
    if (err instanceof HttpError) throw new RunFailure(err.message)
    throw err
  })
  const { adapter, opened, skills, mcp } = prepared
  const model = `${adapter.id} (${resolved.choice.provider}:${resolved.choice.modelId})`
  const outcome = await runHarness({
    adapter,
    caller,
    opened,
    prompt: job.instructions,
    mode: 'run',
    origin: { runId: run.id },
    grant: {
      ...modelGrant(resolved, {
        orgId: job.orgId,
        cap: runCap(resolved.keySource, job.maxCostUsd),
        record: { kind: 'run', id: run.id },
      }),
      // Each call's spending on the run's page as it ends; a failed write loses only that look.
      onSpent: (soFar) => void recordRunUsageSoFar(run.id, { ...soFar, model }).catch(() => {}),
    },
    modelId: resolved.choice.modelId,
    skills,
    mcp,
    signal: ctx.signal,
    timeoutSeconds: job.timeoutMinutes * 60,
    // The harness's steps as they come, for the run's page while it runs.
    onProgress: (parts) => ctx.progress?.([{ role: 'assistant', parts: parts as ExecutorMessage['parts'] }]),
  })
  const transcript: ExecutorMessage[] = outcome.parts.length
    ? [{ role: 'assistant', parts: outcome.parts as ExecutorMessage['parts'] }]
    : []
  const usage = {
    inputTokens: outcome.usage.inputTokens,
    outputTokens: outcome.usage.outputTokens,
    costUsd: outcome.usage.costUsd ?? undefined,
    model,
  }
  if (outcome.failure) throw new RunFailure(outcome.failure, { transcript, usage })
  return { transcript, usage }
}

async function prepare({ caller, job, run, resolved }: Parameters<typeof runJobInHarness>[0]) {
  const adapter = adapterFor(job.harness, resolved)
  const opened = await openEnvironment(caller, job.environment, 'use', { runId: run.id })
  const [jobSkills, envSkills, mcp] = await Promise.all([
    loadRunSkills(job.orgId, job.skills),
    environmentSkills(job.orgId, opened.definition.skills),
    harnessMcp(caller, job.mcp ?? []),
  ])
  return { adapter, opened, skills: [...envSkills, ...jobSkills.attached], mcp }
}
