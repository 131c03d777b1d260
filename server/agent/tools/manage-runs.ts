/**
 * The manage-runs tool: run a job now, list a job's runs, read one run with its transcript, with
 * the caller's rights (the runs service: whoever sees a job sees its runs; whoever may change it
 * may run it). Run now obeys the organisation's deployment-key budget as the API's Run now does.
 * In unattended runs, starting a run needs the running job's `agentMayEditJobs`, as creating and
 * changing jobs does, so a job cannot start others (or itself) on its own.
 */
import { tool } from 'ai'
import { z } from 'zod'
import type { Caller } from '../../auth/caller.ts'
import { badRequest, forbidden } from '../../lib/errors.ts'
import { findJobNamed, getJob, type JobView } from '../../jobs/service.ts'
import type { Run, TranscriptMessage } from '../../runs/schema.ts'
import { getRunWithTranscript, listRunsOfJob } from '../../runs/service.ts'
import { queuedRunNotice } from '../../scheduler/status.ts'
import { startRunNow } from '../run-now.ts'
import { toToolFailure, type ToolContext, type ToolFailure } from '../tool-context.ts'

export const ManageRunsInput = z.object({
  action: z
    .enum(['run', 'list', 'get'])
    .describe(
      "run: start a run of a job now, outside its schedule; list: a job's runs, newest first; get: one run " +
        'with its transcript',
    ),
  name: z.string().optional().describe('run/list: the job, by name (or give jobId)'),
  jobId: z.string().optional().describe('run/list: the job id, instead of name'),
  scope: z
    .enum(['personal', 'shared'])
    .optional()
    .describe('run/list: which job when a personal and a shared one share the name'),
  runId: z.string().optional().describe('get: the run id (run_…) from list or run'),
  limit: z.number().int().min(1).max(100).optional().describe('list: how many runs (default 20)'),
})
export type ManageRunsInput = z.infer<typeof ManageRunsInput>

type JobRef = { id: string; name: string }

export type ManageRunsResult =
  | { ok: true; action: 'run'; summary: string; job: JobRef; run: Run; notice?: string }
  | { ok: true; action: 'list'; summary: string; job: JobRef; runs: Run[] }
  | { ok: true; action: 'get'; summary: string; run: Run; transcript: TranscriptMessage[] }
  | (ToolFailure & { action: ManageRunsInput['action'] })

/** The job a run action means: by id, or by name (and scope when the name is ambiguous). */
async function findJob(caller: Caller, input: ManageRunsInput): Promise<JobView> {
  if (input.jobId) return getJob(caller, input.jobId)
  if (!input.name) throw badRequest('name: say which job (its name, or jobId)', 'name')
  return findJobNamed(caller, input.name, input.scope ?? 'all')
}

async function runAction(ctx: ToolContext, input: ManageRunsInput): Promise<ManageRunsResult> {
  const { caller } = ctx
  switch (input.action) {
    case 'run': {
      if (ctx.mode === 'run' && !ctx.mayEditJobs) {
        throw forbidden(
          'Unattended runs may read runs but not start them, unless the job running has ' +
            'agentMayEditJobs: true. Say in your reply which job should run.',
        )
      }
      const job = await findJob(caller, input)
      const run = await startRunNow(caller, job.id)
      const notice = run.status === 'queued' ? await queuedRunNotice(caller.orgId) : null
      const summary =
        run.status === 'skipped'
          ? `Run of ${job.name} skipped: ${run.reason}`
          : `Started a run of ${job.name}`
      return {
        ok: true,
        action: 'run',
        summary,
        job: { id: job.id, name: job.name },
        run,
        ...(notice ? { notice } : {}),
      }
    }
    case 'list': {
      const job = await findJob(caller, input)
      const runs = await listRunsOfJob(caller, job.id, { limit: input.limit ?? 20 })
      const summary = `${runs.length === 1 ? '1 run' : `${runs.length} runs`} of ${job.name}`
      return { ok: true, action: 'list', summary, job: { id: job.id, name: job.name }, runs }
    }
    case 'get': {
      if (!input.runId) throw badRequest('runId: say which run (its id from list)', 'runId')
      const { run, transcript } = await getRunWithTranscript(caller, input.runId)
      return { ok: true, action: 'get', summary: `Run ${run.id}: ${run.status}`, run, transcript }
    }
  }
}

/** What the model and the system prompt read about the tool. */
export const MANAGE_RUNS_DESCRIPTION =
  "Run a job now (outside its schedule, which stays as it is), list a job's runs, or read one run with " +
  'its transcript, with the person’s own rights. A new run starts queued: read it again with get to see ' +
  'how it went.'

export function createManageRunsTool(ctx: ToolContext) {
  return tool({
    description: MANAGE_RUNS_DESCRIPTION,
    inputSchema: ManageRunsInput,
    execute: async (input): Promise<ManageRunsResult> => {
      try {
        return await runAction(ctx, input)
      } catch (err) {
        return { ...toToolFailure(err, 'manage-runs'), action: input.action }
      }
    },
  })
}
