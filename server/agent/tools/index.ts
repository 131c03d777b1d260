/**
 * The agent's tools, one file each. Chat and unattended runs get the same set; the mode in the
 * context decides what needs a person (see manage-jobs).
 */
import type { ToolContext } from '../tool-context.ts'
import { createClockTool } from './clock.ts'
import { createManageJobsTool } from './manage-jobs.ts'
import { createWorkspaceTool } from './workspace.ts'

/** The tool set for one conversation, bound to its caller. Names are what the model and UI see. */
export function createAgentTools(ctx: ToolContext) {
  return {
    'manage-jobs': createManageJobsTool(ctx),
    workspace: createWorkspaceTool(ctx),
    clock: createClockTool(ctx),
  }
}

export type AgentTools = ReturnType<typeof createAgentTools>
