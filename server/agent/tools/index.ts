/**
 * The agent's tool registry: one line per tool, each written in its own file (or in its domain,
 * for tools from the execution domains) with a description the model reads in the tool list. Chat and unattended runs get the same set; the mode in the context decides
 * what needs a person (see manage-jobs). The chat renders each tool's steps from its entry in
 * app/components/chat/tool-views.tsx, which the type `AgentToolName` keeps in step with this list.
 */
import type { Tool } from 'ai'
import { executionToolEnabled } from '../execution.ts'
import { guardTool } from '../guard-tool.ts'
import { type ToolContext, unstorableArgumentFailure } from '../tool-context.ts'
import { CLI_DESCRIPTION, createCliTool } from './cli.ts'
import { CLOCK_DESCRIPTION, createClockTool } from './clock.ts'
import {
  createEditFileTool,
  createListDirectoryTool,
  createReadFileTool,
  createRunCommandTool,
  createSearchFilesTool,
  createWriteFileTool,
  EDIT_FILE_DESCRIPTION,
  LIST_DIRECTORY_DESCRIPTION,
  READ_FILE_DESCRIPTION,
  RUN_COMMAND_DESCRIPTION,
  RUN_SCRIPT_DESCRIPTION,
  createRunScriptTool,
  SEARCH_FILES_DESCRIPTION,
  WRITE_FILE_DESCRIPTION,
} from './environment.ts'
import { MANAGE_JOBS_DESCRIPTION, createManageJobsTool } from './manage-jobs.ts'
import { MANAGE_RUNS_DESCRIPTION, createManageRunsTool } from './manage-runs.ts'
import { RUN_CODE_DESCRIPTION, createRunCodeTool } from './run-code.ts'
import { RUN_HARNESS_DESCRIPTION, createRunHarnessTool } from './run-harness.ts'
import { SKILLS_DESCRIPTION, createSkillsTool } from './skills.ts'
import { SEND_NOTIFICATION_DESCRIPTION, createSendNotificationTool } from './send-notification.ts'
import { WEB_FETCH_DESCRIPTION, createWebFetchTool } from './web-fetch.ts'
import { WORKSPACE_DESCRIPTION, createWorkspaceTool } from './workspace.ts'

/**
 * One tool: what the system prompt says about it, how to bind it to a conversation, and (for
 * tools an organisation can switch off) whether this conversation gets it at all.
 */
export type AgentToolEntry = {
  description: string
  create: (ctx: ToolContext) => Tool
  enabled?: (ctx: ToolContext) => boolean
}

/** Every tool, by the name the model and the UI see. */
export const AGENT_TOOLS = {
  'manage-jobs': { description: MANAGE_JOBS_DESCRIPTION, create: createManageJobsTool },
  'manage-runs': { description: MANAGE_RUNS_DESCRIPTION, create: createManageRunsTool },
  workspace: { description: WORKSPACE_DESCRIPTION, create: createWorkspaceTool },
  clock: { description: CLOCK_DESCRIPTION, create: createClockTool },
  'run-code': {
    description: RUN_CODE_DESCRIPTION,
    create: createRunCodeTool,
    enabled: (ctx) => executionToolEnabled('run-code', ctx.execution),
  },
  cli: {
    description: CLI_DESCRIPTION,
    create: createCliTool,
    enabled: (ctx) => executionToolEnabled('cli', ctx.execution),
  },
  web_fetch: {
    description: WEB_FETCH_DESCRIPTION,
    create: createWebFetchTool,
    enabled: (ctx) => ctx.execution?.settings.webFetch ?? false,
  },
  write_file: { description: WRITE_FILE_DESCRIPTION, create: createWriteFileTool },
  read_file: { description: READ_FILE_DESCRIPTION, create: createReadFileTool },
  edit_file: { description: EDIT_FILE_DESCRIPTION, create: createEditFileTool },
  list_directory: { description: LIST_DIRECTORY_DESCRIPTION, create: createListDirectoryTool },
  search_files: { description: SEARCH_FILES_DESCRIPTION, create: createSearchFilesTool },
  run_command: {
    description: RUN_COMMAND_DESCRIPTION,
    create: createRunCommandTool,
    enabled: (ctx) => executionToolEnabled('run_command', ctx.execution),
  },
  // A script is a command line too: the org's exec switch covers it.
  run_script: {
    description: RUN_SCRIPT_DESCRIPTION,
    create: createRunScriptTool,
    enabled: (ctx) => executionToolEnabled('run_command', ctx.execution),
  },
  // A harness works in a named environment: without one the caller can use, it is left out.
  run_harness: {
    description: RUN_HARNESS_DESCRIPTION,
    create: createRunHarnessTool,
    enabled: (ctx) =>
      executionToolEnabled('run_command', ctx.execution) && (ctx.execution?.hasEnvironments ?? false),
  },
  skills: { description: SKILLS_DESCRIPTION, create: createSkillsTool },
  // Only runs have notify targets, and only a run whose job has some can use it; chat never gets it.
  send_notification: {
    description: SEND_NOTIFICATION_DESCRIPTION,
    create: createSendNotificationTool,
    enabled: (ctx) => ctx.mode === 'run' && (ctx.hasNotifyTargets ?? false),
  },
} satisfies Record<string, AgentToolEntry>

export type AgentToolName = keyof typeof AGENT_TOOLS
export type AgentTools = { [K in AgentToolName]: ReturnType<(typeof AGENT_TOOLS)[K]['create']> }

/** The names of the tools this conversation gets (those its organisation has not switched off). */
export function enabledToolNames(ctx: ToolContext): AgentToolName[] {
  const names = Object.keys(AGENT_TOOLS) as AgentToolName[]
  return names.filter((name) => {
    const entry: AgentToolEntry = AGENT_TOOLS[name]
    return entry.enabled?.(ctx) ?? true
  })
}

/**
 * The tool set for one conversation, bound to its caller. Tools the organisation switched off are
 * absent (the type lists every tool; a conversation may hold fewer).
 */
export function createAgentTools(ctx: ToolContext): AgentTools {
  return Object.fromEntries(
    enabledToolNames(ctx).map((name) => [name, refusingUnstorable(name, AGENT_TOOLS[name].create(ctx))]),
  ) as AgentTools
}

/**
 * `tool`, answering arguments PostgreSQL cannot store with a 400 naming the argument before it
 * runs: the model's arguments are steered by whoever wrote the prompt (decision 0470).
 */
function refusingUnstorable(name: string, tool: Tool): Tool {
  return guardTool(tool, (input) => unstorableArgumentFailure(input, name) ?? undefined)
}
