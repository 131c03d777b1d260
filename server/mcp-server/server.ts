/**
 * One MCP server per request, for one token's caller: the tools its scopes allow (tools.ts), the
 * job files as resources (`clockwork://jobs/<name>`; `clockwork://jobs/shared/<name>` for a shared
 * job whose name a personal one also has) and a prompt for scheduling a job. Built per request because the endpoint
 * is stateless (see endpoint.ts): the token is checked on every request.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js'
import { ErrorCode, ListResourcesRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { ToolContext } from '../agent/tool-context.ts'
import type { Caller } from '../access/caller.ts'
import { readJobFile } from '../jobs/job-files.ts'
import { listJobPage, personalJobNamesAmong } from '../jobs/service.ts'
import { HttpError } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import type { TokenCaller } from '../tokens/access-tokens.ts'
import { argumentsOf, asCallToolResult, toolsFor } from './tools.ts'

export const JOB_URI_PREFIX = 'clockwork://jobs/'
const SHARED_JOB_URI_PREFIX = 'clockwork://jobs/shared/'

/**
 * The resource address of a job file: `clockwork://jobs/<name>`, or `clockwork://jobs/shared/<name>`
 * for a shared job whose name one of the person's personal jobs also has.
 */
export const jobUri = (name: string, scope: 'personal' | 'shared', clash = false) =>
  `${scope === 'shared' && clash ? SHARED_JOB_URI_PREFIX : JOB_URI_PREFIX}${name}`

/**
 * What every client's model is told about Clockwork: Clockwork's own words only. Clients put them
 * among their system instructions, so nothing a tenant wrote goes in: an organisation's name there
 * was a way for its admins to give orders to every member's agent (decision 0417).
 */
const INSTRUCTIONS =
  'Clockwork runs scheduled jobs: a prompt an AI agent runs by itself on a schedule. You act as the ' +
  'person who made this access token, with their rights in their organisation. Preview a schedule ' +
  'before creating a job, and repeat the schedule in words from the result to the person.'

export function buildMcpServer({ caller, scopes }: TokenCaller, version: string): McpServer {
  const server = new McpServer(
    { name: 'clockwork', title: 'Clockwork', version },
    { instructions: INSTRUCTIONS },
  )
  // Mode chat: a person drives their own client (and answers its permission prompts); the
  // confirmation step for deleting is delete_job's `confirm` argument.
  const ctx: ToolContext = { caller, mode: 'chat', timezone: caller.timezone ?? undefined }

  // The endpoint has checked a call's arguments against the same schema (toolArgumentsFailure).
  for (const [name, spec] of toolsFor(scopes)) {
    server.registerTool(
      name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: argumentsOf(name),
        annotations: spec.annotations,
      },
      async (args: Record<string, unknown>) => asCallToolResult(await spec.call(ctx, args)),
    )
  }

  if (scopes.includes('jobs:read')) {
    const fileMeta = {
      title: 'Job file',
      description:
        'A job as its file: YAML frontmatter (schedule, timezone, enabled, …) and the instructions. ' +
        'Propose changes with edit_job_file.',
      mimeType: 'text/markdown',
    }
    const read = (scope: 'personal' | 'shared' | null) => async (uri: URL, variables: Variables) => {
      const text = await asMcpRefusal(() => readJobFileEither(ctx, String(variables.name), scope))
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] }
    }
    server.registerResource(
      'job-file',
      new ResourceTemplate(`${JOB_URI_PREFIX}{name}`, { list: undefined }),
      fileMeta,
      read(null),
    )
    server.registerResource(
      'shared-job-file',
      new ResourceTemplate(`${SHARED_JOB_URI_PREFIX}{name}`, { list: undefined }),
      { ...fileMeta, title: 'Shared job file' },
      read('shared'),
    )
    // The SDK's own resources/list gives a template's list no cursor and drops its nextCursor, so
    // every job would be listed at once: this one answers a page (MCP's cursor and nextCursor).
    server.server.setRequestHandler(ListResourcesRequestSchema, (request) =>
      asMcpRefusal(() => listJobFiles(caller, request.params?.cursor)),
    )
  }

  if (scopes.includes('jobs:write')) {
    server.registerPrompt(
      'schedule-a-job',
      {
        title: 'Schedule a job',
        description: 'Turn "every weekday at 7, summarise the open PRs" into a Clockwork job.',
        argsSchema: {
          task: z.string().describe('What the job should do each time, e.g. "summarise the open PRs"'),
          when: z.string().describe('When, in words or cron, e.g. "every weekday at 07:00"'),
          timezone: z.string().optional().describe('An IANA zone, e.g. Europe/Berlin (default: yours)'),
        },
      },
      ({ task, when, timezone }) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                `Schedule this in Clockwork: ${task}, ${when}` +
                `${timezone ? ` (${timezone})` : ''}.\n\n` +
                '1. Work out a schedule: a 5-field cron expression, or at: "YYYY-MM-DDTHH:MM" for once, or ' +
                'every: "90m" for an interval, and check it with preview_schedule.\n' +
                '2. Write instructions the agent can follow on its own each time (it has no memory of this ' +
                'conversation), and pick a short slug name.\n' +
                '3. Call create_job, then tell me the schedule in words from its result and the job link.',
            },
          },
        ],
      }),
    )
  }
  return server
}

/**
 * One page of the caller's job files as resources, by name, with the jobs list's own paging
 * (jobs/list.ts); a cursor that is not one of its nextCursors is invalid params.
 */
async function listJobFiles(caller: Caller, cursor: string | undefined) {
  const page = await listJobPage(caller, { cursor })
  const shared = page.jobs.filter((job) => job.scope === 'shared').map((job) => job.name)
  const clashes = await personalJobNamesAmong(caller, shared)
  return {
    resources: page.jobs.map((job) => ({
      uri: jobUri(job.name, job.scope, clashes.has(job.name)),
      name: job.name,
      title: `${job.name} (${job.scope})`,
      description: job.description,
      mimeType: 'text/markdown',
    })),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  }
}

/** A job file by name: the given scope, or the personal job of that name, else the shared one. */
async function readJobFileEither(ctx: ToolContext, name: string, scope: 'personal' | 'shared' | null) {
  if (scope) return (await readJobFile(ctx.caller, scope, name)).text
  try {
    return (await readJobFile(ctx.caller, 'personal', name)).text
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 404) throw err
    return (await readJobFile(ctx.caller, 'shared', name)).text
  }
}

/** MCP's code for a resource that does not exist (or that the person may not see). */
const RESOURCE_NOT_FOUND = -32002

/**
 * Runs a resource handler, answering a refusal with MCP's error for it: 404 is "resource not
 * found", 400 invalid params, any other refusal an invalid request with its message. Anything
 * else is logged and answered in general words: the SDK would send its message, which for a
 * database error is the SQL.
 */
async function asMcpRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof McpError) throw err
    if (err instanceof HttpError) {
      const code =
        err.status === 404
          ? RESOURCE_NOT_FOUND
          : err.status === 400
            ? ErrorCode.InvalidParams
            : ErrorCode.InvalidRequest
      throw new McpError(code, err.message)
    }
    logger.error({ err }, 'MCP resource request failed')
    throw new McpError(ErrorCode.InternalError, 'Something went wrong on our side')
  }
}
