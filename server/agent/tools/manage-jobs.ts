/**
 * The manage-jobs tool: create, list, update and delete jobs through the jobs service, with the
 * caller's rights. Every result says the resolved schedule in words with its zone, which the
 * agent repeats to the person.
 *
 * Deleting needs a human: in chat the AI SDK's tool approval pauses the call and the chat panel
 * asks the person (Delete / Keep). The answer travels in the person's next request, which the
 * model cannot write, so it cannot confirm for itself. In unattended runs there is nobody to ask,
 * so delete is refused outright.
 */
import { tool } from 'ai'
import { z } from 'zod'
import type { Caller } from '../../auth/caller.ts'
import { badRequest, forbidden } from '../../lib/errors.ts'
import {
  createJob,
  deleteJob,
  findJobNamed,
  getJob,
  listJobPage,
  previewSchedule,
  updateJob,
  type JobPage,
  type JobView,
  type SchedulePreview,
} from '../../jobs/service.ts'
import { toToolFailure, type ToolContext, type ToolFailure } from '../tool-context.ts'
import { ManageJobsInput, UPDATE_FIELDS } from './manage-jobs-input.ts'

/** A job as the tool reports it: enough to talk about it and link to it. */
export type JobBrief = {
  id: string
  name: string
  scope: 'personal' | 'shared'
  schedule: string
  timezone: string
  /** "Every weekday at 07:00 (Europe/Berlin)". */
  description: string
  enabled: boolean
  runAs: 'creator' | 'shared'
  nextRun: string | null
  lastStatus: string | null
  createdBy: string
  canEdit: boolean
  url: string
  /** Whole, except in a list: there the list's preview (jobs/list.ts), cut at 200 characters. */
  instructions: string
}

export type ManageJobsResult =
  | { ok: true; action: 'create' | 'get' | 'update'; summary: string; job: JobBrief }
  | {
      ok: true
      action: 'list'
      summary: string
      jobs: JobBrief[]
      /** Jobs matching in all; `nextCursor` reads the page after this one (null on the last). */
      total: number
      nextCursor: string | null
    }
  | { ok: true; action: 'delete'; summary: string; job: Pick<JobBrief, 'id' | 'name' | 'scope'> }
  | { ok: true; action: 'preview'; summary: string; preview: SchedulePreview }
  | (ToolFailure & { action: ManageJobsInput['action'] })

function toBrief(job: JobView): JobBrief {
  return {
    id: job.id,
    name: job.name,
    scope: job.scope,
    schedule: job.schedule,
    timezone: job.timezone,
    description: job.description,
    enabled: job.enabled,
    runAs: job.runAs,
    nextRun: job.nextRun,
    lastStatus: job.lastStatus,
    createdBy: job.createdBy.email,
    canEdit: job.canEdit,
    url: `/jobs/${job.id}`,
    instructions: job.instructions,
  }
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)

/** "Created job morning-digest, every weekday at 07:00 (Europe/Berlin)" (and "paused" when it is). */
export function summariseJob(verb: string, job: Pick<JobView, 'name' | 'description' | 'enabled'>): string {
  return `${verb} job ${job.name}, ${lowerFirst(job.description)}${job.enabled ? '' : ' (paused)'}`
}

/** "3 jobs"; or, for one page of several, "50 of 1204 jobs" and how to read on. */
function listSummary(page: JobPage, paged: boolean): string {
  const jobs = (n: number) => (n === 1 ? '1 job' : `${n} jobs`)
  if (!paged && !page.nextCursor) return jobs(page.total)
  const shown = `${page.jobs.length} of ${jobs(page.total)}`
  return page.nextCursor ? `${shown}; list again with cursor: nextCursor for the next page` : shown
}

/** The job an update or delete means: by id, or by name (and scope when the name is ambiguous). */
async function findTarget(caller: Caller, input: ManageJobsInput): Promise<JobView> {
  if (input.id) return getJob(caller, input.id)
  if (!input.name) throw badRequest('name: say which job (its name, or its id from list)', 'name')
  return findJobNamed(caller, input.name, input.scope ?? 'all')
}

/** The job fields the model gave (left-out ones stay absent, so defaults and PATCH semantics hold). */
const pickFields = (input: ManageJobsInput) =>
  Object.fromEntries(UPDATE_FIELDS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]))

async function runAction(ctx: ToolContext, input: ManageJobsInput): Promise<ManageJobsResult> {
  const { caller } = ctx
  if (ctx.mode === 'run' && !ctx.mayEditJobs && (input.action === 'create' || input.action === 'update')) {
    throw forbidden(
      'Unattended runs may read jobs but not create or change them, unless the job running has ' +
        'agentMayEditJobs: true (its creator or an admin can set it). Say in your reply what should change.',
    )
  }
  switch (input.action) {
    case 'create': {
      const job = await createJob(caller, { name: input.name, scope: input.scope, ...pickFields(input) })
      return { ok: true, action: 'create', summary: summariseJob('Created', job), job: toBrief(job) }
    }
    case 'list': {
      const page = await listJobPage(caller, {
        scope: input.scope ?? 'all',
        q: input.query,
        limit: input.limit,
        cursor: input.cursor,
      })
      return {
        ok: true,
        action: 'list',
        summary: listSummary(page, input.cursor !== undefined),
        jobs: page.jobs.map(toBrief),
        total: page.total,
        nextCursor: page.nextCursor,
      }
    }
    case 'preview': {
      const timezone = input.timezone ?? ctx.timezone ?? caller.timezone ?? 'UTC'
      const preview = await previewSchedule({
        schedule: input.schedule,
        at: input.at,
        every: input.every,
        timezone,
      })
      const summary = preview.valid ? preview.description : `Not a valid schedule: ${preview.message}`
      return { ok: true, action: 'preview', summary, preview }
    }
    case 'get': {
      const job = await findTarget(caller, input)
      return { ok: true, action: 'get', summary: summariseJob('Found', job), job: toBrief(job) }
    }
    case 'update': {
      const change = pickFields(input)
      // The API's refusal would list every job field, several of which this tool does not take.
      if (Object.keys(change).length === 0)
        throw badRequest(`Nothing to update: send at least one of ${UPDATE_FIELDS.join(', ')}`)
      const target = await findTarget(caller, input)
      const job = await updateJob(caller, target.id, change)
      return { ok: true, action: 'update', summary: summariseJob('Updated', job), job: toBrief(job) }
    }
    case 'delete': {
      if (ctx.mode === 'run') {
        throw forbidden(
          'Deleting a job needs a person to confirm it in chat, so unattended runs may not delete jobs. ' +
            'Pause it instead (update with enabled: false) or ask in chat.',
        )
      }
      const target = await findTarget(caller, input)
      await deleteJob(caller, target.id)
      const job = { id: target.id, name: target.name, scope: target.scope }
      return { ok: true, action: 'delete', summary: `Deleted job ${target.name}`, job }
    }
  }
}

/** What the model and the system prompt read about the tool. */
export const MANAGE_JOBS_DESCRIPTION =
  'Create, list, read, update or delete scheduled jobs, or preview a schedule (a prompt the agent runs on a cron schedule "0 7 * * 1-5" ' +
  "in an IANA time zone, default the person's), with the person's own rights. Instead of schedule, give " +
  'at: "2026-12-24T09:00" for a one-off ("remind me tomorrow at 9": work out the date from the current ' +
  'time; it runs once, then pauses itself) or every: "90m" for a fixed interval. Choose a short slug name ' +
  '(e.g. "morning-digest"). Results describe the schedule in words with its time zone: repeat that to the ' +
  'person. Create never replaces an existing job: on a name conflict, tell the person and suggest another name.'

/**
 * In a run that may only list jobs (the job did not opt in to `agentMayEditJobs`), the tool's
 * definition leaves out the job fields it could never use: they were most of the tokens of every
 * model call. The actions stay, so a create, update or delete is still refused with its reason.
 */
const LIST_ONLY_DESCRIPTION =
  'List the scheduled jobs the person can see (this run may not create, change or delete jobs).'
const ListOnlyInput = z.object({
  action: ManageJobsInput.shape.action.describe('list; the other actions are refused in this run'),
  query: ManageJobsInput.shape.query,
  cursor: ManageJobsInput.shape.cursor,
})

export function createManageJobsTool(ctx: ToolContext) {
  const listOnly = ctx.mode === 'run' && !ctx.mayEditJobs
  return tool({
    description: listOnly ? LIST_ONLY_DESCRIPTION : MANAGE_JOBS_DESCRIPTION,
    // The list-only schema is a subset of the full one, so its input is a ManageJobsInput.
    inputSchema: (listOnly ? ListOnlyInput : ManageJobsInput) as typeof ManageJobsInput,
    // Chat only: the person answers the confirmation in their next request. Runs refuse delete instead.
    needsApproval: (input) => ctx.mode === 'chat' && input.action === 'delete',
    execute: async (input): Promise<ManageJobsResult> => {
      try {
        return await runAction(ctx, input)
      } catch (err) {
        return { ...toToolFailure(err, 'manage-jobs'), action: input.action }
      }
    },
  })
}
