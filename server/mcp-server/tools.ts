/**
 * The tools Clockwork's MCP server offers a person's own agent. The job, schedule and run tools are
 * the built-in agent's `manage-jobs` and `manage-runs` tools (agent/tools), called with one of
 * their actions: the same input fields (from the job field registry), services, validation,
 * messages and results; nothing about jobs or runs is written a second time here. Listing
 * environments and saving a job file call the services the HTTP API's routes call. Each tool needs
 * one token scope; the server lists and runs only those the token has.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { AGENT_TOOLS } from '../agent/tools/index.ts'
import type { ManageJobsResult } from '../agent/tools/manage-jobs.ts'
import { ManageJobsInput } from '../agent/tools/manage-jobs-input.ts'
import { ManageRunsInput, type ManageRunsResult } from '../agent/tools/manage-runs.ts'
import { toToolFailure, type ToolContext, type ToolFailure } from '../agent/tool-context.ts'
import { listEnvironments } from '../environments/browse/browse.ts'
import { writeJobFile } from '../jobs/job-files.ts'
import { badFields } from '../lib/errors.ts'
import { checkInput } from '../lib/validate.ts'
import type { AccessTokenScope } from '../tokens/access-tokens.ts'

/** A tool's answer: `ok: false` results reach the client as tool errors (`isError`). */
export type McpToolResult = { ok: boolean; [key: string]: unknown }

export type McpToolSpec = {
  scope: AccessTokenScope
  title: string
  description: string
  inputSchema: z.ZodRawShape
  annotations: ToolAnnotations
  call: (ctx: ToolContext, args: Record<string, unknown>) => Promise<McpToolResult>
}

const manageJobsTool = AGENT_TOOLS['manage-jobs']
const manageRunsTool = AGENT_TOOLS['manage-runs']

/** One call of the agent's manage-jobs tool, bound to the token's caller. */
async function manageJobs(ctx: ToolContext, input: ManageJobsInput): Promise<ManageJobsResult> {
  const tool = manageJobsTool.create(ctx)
  return (await tool.execute!(input, { toolCallId: 'mcp', messages: [] })) as ManageJobsResult
}

/** One call of the agent's manage-runs tool, bound to the token's caller. */
async function manageRuns(ctx: ToolContext, input: ManageRunsInput): Promise<ManageRunsResult> {
  const tool = manageRunsTool.create(ctx)
  return (await tool.execute!(input, { toolCallId: 'mcp', messages: [] })) as ManageRunsResult
}

const field = ManageJobsInput.shape
const target = { id: field.id, name: field.name, scope: field.scope }
const { action: _action, query: _query, id: _id, limit: _limit, cursor: _cursor, ...createFields } = field
const updateFields = { ...createFields, id: field.id }

const runField = ManageRunsInput.shape
const runTarget = { name: runField.name, jobId: runField.jobId, scope: runField.scope }

/** A manage-jobs action as a tool: its arguments pass through unchanged. */
const jobAction =
  (action: ManageJobsInput['action'], extra: Partial<ManageJobsInput> = {}) =>
  (ctx: ToolContext, args: Record<string, unknown>) =>
    manageJobs(ctx, { ...(args as Partial<ManageJobsInput>), ...extra, action })

/** A manage-runs action as a tool. */
const runAction = (action: ManageRunsInput['action']) => (ctx: ToolContext, args: Record<string, unknown>) =>
  manageRuns(ctx, { ...(args as Partial<ManageRunsInput>), action })

/** Runs a service call, turning a refusal into the same failure shape as the agent's tools. */
async function attempt(tool: string, work: () => Promise<Record<string, unknown>>): Promise<McpToolResult> {
  try {
    return { ok: true, ...(await work()) }
  } catch (err) {
    return toToolFailure(err, tool)
  }
}

/** The job delete_job means, found as manage-jobs finds it (by id, or name and scope), or why not. */
async function jobToDelete(ctx: ToolContext, args: Record<string, unknown>) {
  const found = await manageJobs(ctx, { ...(args as Partial<ManageJobsInput>), action: 'get' })
  return found.ok && found.action === 'get' ? { id: found.job.id, name: found.job.name } : found
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false }
const WRITES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false }

export const CONFIRM_DELETE =
  'Deleting a job removes it and its run history for good. Ask the person whether to delete it; ' +
  'only if they say yes, call delete_job again with the same job and confirm: true.'

/** Every tool, by the name a client sees (Claude Code shows them as `mcp__<server>__<name>`). */
export const MCP_TOOLS: Record<string, McpToolSpec> = {
  list_jobs: {
    scope: 'jobs:read',
    title: 'List jobs',
    description:
      'The scheduled jobs the person can see in their organisation (personal and shared), by name, with ' +
      'each schedule in words, its next run and last status. Filter by scope or by text in name or ' +
      'instructions. One page at a time: when the answer has a nextCursor, call again with it as cursor.',
    inputSchema: { scope: field.scope, query: field.query, limit: field.limit, cursor: field.cursor },
    annotations: READ_ONLY,
    call: jobAction('list'),
  },
  get_job: {
    scope: 'jobs:read',
    title: 'Get a job',
    description: 'One job in full (instructions included), by name or id.',
    inputSchema: target,
    annotations: READ_ONLY,
    call: jobAction('get'),
  },
  create_job: {
    scope: 'jobs:write',
    title: 'Create a job',
    description: manageJobsTool.description,
    inputSchema: createFields,
    annotations: WRITES,
    call: jobAction('create'),
  },
  update_job: {
    scope: 'jobs:write',
    title: 'Update a job',
    description:
      'Change some fields of a job (by name or id); fields left out stay as they are. The result says ' +
      'the schedule in words: repeat it to the person.',
    inputSchema: updateFields,
    annotations: { ...WRITES, idempotentHint: true },
    call: jobAction('update'),
  },
  pause_job: {
    scope: 'jobs:write',
    title: 'Pause a job',
    description: 'Stop a job from running on its schedule without deleting it (resume_job starts it again).',
    inputSchema: target,
    annotations: { ...WRITES, idempotentHint: true },
    call: jobAction('update', { enabled: false }),
  },
  resume_job: {
    scope: 'jobs:write',
    title: 'Resume a job',
    description: 'Start a paused job again on its schedule.',
    inputSchema: target,
    annotations: { ...WRITES, idempotentHint: true },
    call: jobAction('update', { enabled: true }),
  },
  delete_job: {
    scope: 'jobs:write',
    title: 'Delete a job',
    description:
      'Delete a job and its run history, for good. Needs the person’s go-ahead: without confirm: true ' +
      'nothing is deleted and the result says what to ask. Pausing (pause_job) keeps the job.',
    inputSchema: {
      ...target,
      confirm: z
        .boolean()
        .optional()
        .describe('true only after the person said yes to deleting this job; anything else deletes nothing'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    call: async (ctx, { confirm, ...args }) => {
      if (confirm === true) return jobAction('delete')(ctx, args)
      const found = await jobToDelete(ctx, args)
      if ('ok' in found) return found
      return { ok: false, confirmationRequired: true, job: found, message: CONFIRM_DELETE }
    },
  },
  edit_job_file: {
    scope: 'jobs:write',
    title: 'Save a job file',
    description:
      'Save a job file (clockwork://jobs/<name>: YAML frontmatter, then the instructions) as the job’s ' +
      'whole definition, creating the job when there is none by that name. Read the resource first and ' +
      'change only what the person asked; keys left out go back to their defaults.',
    inputSchema: {
      name: field.name.unwrap().describe('The job name (the file is jobs/<name>.md)'),
      scope: field.scope,
      content: z.string().describe('The whole file text'),
    },
    annotations: WRITES,
    call: (ctx, args) =>
      attempt('edit_job_file', async () => {
        const scope = (args.scope as 'personal' | 'shared' | undefined) ?? 'personal'
        const { job, created } = await writeJobFile(
          ctx.caller,
          scope,
          String(args.name),
          String(args.content),
        )
        const verb = created ? 'Created' : 'Saved'
        return {
          summary: `${verb} jobs/${job.name}.md: ${job.description}`,
          job: { id: job.id, name: job.name },
        }
      }),
  },
  run_job: {
    scope: 'runs:write',
    title: 'Run a job now',
    description: manageRunsTool.description,
    inputSchema: runTarget,
    annotations: WRITES,
    call: runAction('run'),
  },
  list_runs: {
    scope: 'runs:read',
    title: 'List runs',
    description: 'A job’s runs (by name or jobId), newest first: status, when, duration, error.',
    inputSchema: { ...runTarget, limit: runField.limit },
    annotations: READ_ONLY,
    call: runAction('list'),
  },
  get_run: {
    scope: 'runs:read',
    title: 'Read a run',
    description:
      'One run with its transcript (the agent’s messages and tool calls), by runId from list_runs.',
    inputSchema: { runId: runField.runId.unwrap() },
    annotations: READ_ONLY,
    call: runAction('get'),
  },
  preview_schedule: {
    scope: 'jobs:read',
    title: 'Preview a schedule',
    description:
      'Check a schedule before saving it: whether it is valid, what it means in words and its next fire ' +
      'times. Give one of schedule (cron), at (one-off) or every (interval).',
    inputSchema: { schedule: field.schedule, at: field.at, every: field.every, timezone: field.timezone },
    annotations: READ_ONLY,
    call: jobAction('preview'),
  },
  list_environments: {
    scope: 'jobs:read',
    title: 'List environments',
    description:
      'The environments the person can see (a job names one with its environment field): name, scope, status.',
    inputSchema: {},
    annotations: READ_ONLY,
    call: (ctx) =>
      attempt('list_environments', async () => ({ environments: await listEnvironments(ctx.caller) })),
  },
}

/**
 * Each tool's arguments as one strict schema, as the API's bodies are: a key the tool does not take
 * is refused, not dropped (decision 0535). The SDK's object of a tool's fields strips unknown keys,
 * so `agentMayEditJobs`, which the API takes and the tools do not, was left out of an update that
 * answered "Updated".
 */
const ARGUMENTS = new Map(
  Object.entries(MCP_TOOLS).map(([name, spec]) => [name, z.strictObject(spec.inputSchema)]),
)

/** The schema of a tool's arguments (what tools/list shows: no other arguments). */
export const argumentsOf = (name: string) => ARGUMENTS.get(name)!

/**
 * A call's arguments checked before the tool runs, as the API checks a body: the API's 400 naming
 * every bad one (a key the tool does not take, a wrong type, text PostgreSQL cannot store), or
 * null. The SDK would answer a wrong type in a line of its own text, not in the tool error's JSON.
 */
export function toolArgumentsFailure(name: string, args: unknown): ToolFailure | null {
  const checked = checkInput(argumentsOf(name), args ?? {})
  return checked.ok ? null : toToolFailure(badFields(checked.problems), name)
}

/** A tool's answer as MCP carries it: its JSON as text, a tool error when it is not ok. */
export const asCallToolResult = (result: McpToolResult) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(result, null, 2) }],
  isError: !result.ok,
})

/** The tools a token with these scopes gets. */
export const toolsFor = (scopes: readonly AccessTokenScope[]) =>
  Object.entries(MCP_TOOLS).filter(([, spec]) => scopes.includes(spec.scope))
