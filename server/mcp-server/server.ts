/**
 * One MCP server per request, for one token's caller: the tools its scopes allow (tools.ts), the
 * job files as resources (`clockwork://jobs/<name>`; `clockwork://jobs/shared/<name>` for a shared
 * job whose name a personal one also has) and a prompt for scheduling a job. Built per request because the endpoint
 * is stateless (see endpoint.ts): the token is checked on every request.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js'
import { z } from 'zod'
import type { ToolContext } from '../agent/tool-context.ts'
import { readJobFile } from '../jobs/job-files.ts'
import { listJobs } from '../jobs/service.ts'
import { HttpError } from '../lib/errors.ts'
import type { TokenCaller } from '../tokens/access-tokens.ts'
import { toolsFor } from './tools.ts'

export const JOB_URI_PREFIX = 'clockwork://jobs/'
const SHARED_JOB_URI_PREFIX = 'clockwork://jobs/shared/'

/**
 * The resource address of a job file: `clockwork://jobs/<name>`, or `clockwork://jobs/shared/<name>`
 * for a shared job whose name one of the person's personal jobs also has.
 */
export const jobUri = (name: string, scope: 'personal' | 'shared', clash = false) =>
  `${scope === 'shared' && clash ? SHARED_JOB_URI_PREFIX : JOB_URI_PREFIX}${name}`

export function buildMcpServer({ caller, scopes }: TokenCaller, version: string): McpServer {
  const server = new McpServer(
    { name: 'clockwork', title: 'Clockwork', version },
    {
      instructions:
        'Clockwork runs scheduled jobs: a prompt an AI agent runs by itself on a schedule. You act as ' +
        `${caller.name} in the organisation ${caller.orgName}, with their rights. Preview a schedule ` +
        'before creating a job, and repeat the schedule in words from the result to the person.',
    },
  )
  // Mode chat: a person drives their own client (and answers its permission prompts); the
  // confirmation step for deleting is delete_job's `confirm` argument.
  const ctx: ToolContext = { caller, mode: 'chat', timezone: caller.timezone ?? undefined }

  for (const [name, spec] of toolsFor(scopes)) {
    server.registerTool(
      name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: spec.inputSchema,
        annotations: spec.annotations,
      },
      async (args: Record<string, unknown>) => {
        const result = await spec.call(ctx, args)
        return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], isError: !result.ok }
      },
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
    const list = async () => {
      const jobs = await listJobs(caller)
      const personal = new Set(jobs.filter((job) => job.scope === 'personal').map((job) => job.name))
      return {
        resources: jobs.map((job) => ({
          uri: jobUri(job.name, job.scope, personal.has(job.name)),
          name: job.name,
          title: `${job.name} (${job.scope})`,
          description: job.description,
          mimeType: 'text/markdown',
        })),
      }
    }
    const read = (scope: 'personal' | 'shared' | null) => async (uri: URL, variables: Variables) => {
      const text = await readJobFileEither(ctx, String(variables.name), scope)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] }
    }
    server.registerResource(
      'job-file',
      new ResourceTemplate(`${JOB_URI_PREFIX}{name}`, { list }),
      fileMeta,
      read(null),
    )
    server.registerResource(
      'shared-job-file',
      new ResourceTemplate(`${SHARED_JOB_URI_PREFIX}{name}`, { list: undefined }),
      { ...fileMeta, title: 'Shared job file' },
      read('shared'),
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
