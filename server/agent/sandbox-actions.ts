/**
 * The actions agent code may call from the sandbox (`appAction(name, input)`), bound to the
 * conversation's caller. Each one runs the agent's own tool, so the same services, schemas and
 * access checks apply as when the model calls the tool: the code can do what the person could do
 * through the API, nothing more. Only reads and non-destructive writes are allowed: deleting jobs
 * needs a person's confirmation, which code inside a run cannot give.
 */
import type { Tool } from 'ai'
import type { z } from 'zod'
import { forbidden } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import type { BridgeActions } from '../sandbox/bridge.ts'
import type { ToolContext } from './tool-context.ts'
import { createClockTool } from './tools/clock.ts'
import { createManageJobsTool } from './tools/manage-jobs.ts'
import { createWorkspaceTool } from './tools/workspace.ts'

const JOB_ACTIONS = ['list', 'create', 'update']
const WORKSPACE_ACTIONS = ['list', 'read']

/** Calls a tool's execute as the model would, and turns `{ ok: false, error }` into a thrown error. */
async function callTool(tool: Tool, input: unknown): Promise<unknown> {
  // Our tools take zod schemas: a bad input is the same 400 naming the field as over HTTP.
  const parsed = parseInput(tool.inputSchema as z.ZodType, input)
  const result = (await tool.execute!(parsed, { toolCallId: 'sandbox', messages: [] })) as {
    ok?: boolean
    error?: { status: number; code: string; message: string; field?: string }
  }
  if (result?.ok === false && result.error) throw Object.assign(new Error(result.error.message), result.error)
  return result
}

function only(allowed: string[], what: string, input: unknown) {
  const action = (input as { action?: unknown } | null)?.action
  if (typeof action !== 'string' || !allowed.includes(action)) {
    throw forbidden(`${what}: appAction allows action ${allowed.join(', ')} only`)
  }
}

export function createSandboxActions(ctx: ToolContext): BridgeActions {
  const manageJobs = createManageJobsTool(ctx)
  const workspace = createWorkspaceTool(ctx)
  const clock = createClockTool(ctx)
  return {
    'manage-jobs': async (input) => {
      only(JOB_ACTIONS, 'manage-jobs', input)
      return callTool(manageJobs, input)
    },
    workspace: async (input) => {
      only(WORKSPACE_ACTIONS, 'workspace', input)
      return callTool(workspace, input)
    },
    clock: async (input) => callTool(clock, input ?? {}),
  }
}
