/**
 * The environment tools: a working folder where the agent writes, runs, reads the full output and
 * errors, fixes and runs again. Every path is confined to the environment (server/environments/
 * paths.ts); commands run sandboxed under the environment's policy. `run_command` on a command the
 * policy marks `ask` stops at an approval card in chat (the AI SDK's needsApproval: the answer
 * comes in the person's next request, which the model cannot write); in an unattended run there is
 * nobody to ask, so it is denied and the reason is the tool result the transcript keeps.
 * A call that builds its environment streams the build's progress first (bootstrap-progress.ts);
 * reading the policy or the scripts beforehand never builds.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { describeNetworkRefusal } from '../../environments/exec/commands.ts'
import { judgeCommand } from '../../environments/policy/judge.ts'
import {
  EditFileInput,
  ListDirectoryInput,
  ReadFileInput,
  SearchFilesInput,
  WriteFileInput,
} from '../../environments/files/files-schema.ts'
import {
  operate,
  type NoticedSkill,
  type OperationName,
  type Operations,
  type RunCommandRequest,
} from '../../environments/operations/operations.ts'
import { openEnvironment } from '../../environments/service.ts'
import type { BootstrapWatcher } from '../../environments/bootstrap/bootstrap-watch.ts'
import { badRequest } from '../../lib/errors.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'
import { withBootstrapProgress } from './bootstrap-progress.ts'

const environment = z
  .string()
  .optional()
  .describe(
    "Environment name; default: the job's environment, else a scratch folder (a run's own, or your personal one in chat)",
  )

const RunCommandInput = z.strictObject({
  environment,
  command: z
    .string()
    .min(1)
    .max(16_384)
    .describe('A shell command line, run with bash in the environment folder'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(3600)
    .optional()
    .describe('Wall-clock limit (default from the environment)'),
})

const origin = (ctx: ToolContext) => ({ threadId: ctx.threadId, runId: ctx.runId, turnId: ctx.turnId })
/** The environment a call names: its own argument, else the job's, else a scratch folder. */
const refOf = (ctx: ToolContext, input: { environment?: string }) => ({
  name: input.environment ?? ctx.environment ?? undefined,
  runId: ctx.runId,
})

/** Runs one operation for the agent; failures become a result the model reads. */
function call<K extends Exclude<OperationName, 'run_command'>>(ctx: ToolContext, op: K) {
  // Declared a generator, not a function returning one, so a guard sees it streams (guard-tool.ts).
  return async function* ({
    environment: name,
    ...input
  }: Operations[K]['input'] & { environment?: string }) {
    yield* withBootstrapProgress((onBootstrap) =>
      operate(
        ctx.caller,
        refOf(ctx, { environment: name }),
        op,
        input as Operations[K]['input'],
        origin(ctx),
        false,
        onBootstrap,
      )
        .then(({ environment, result }) => ({ ok: true as const, environment, ...withSkillNote(result) }))
        .catch((err: unknown) => toToolFailure(err, op)),
    )
  }
}

/** A write that made a self-made skill tells the agent who decides on it (or why it was refused). */
function withSkillNote<R extends object>(result: R) {
  if (!('skill' in result) || !result.skill) return result
  const skill = result.skill as NoticedSkill
  return { ...result, skill: { ...skill, note: skill.note ?? 'A person must approve it on the Skills page' } }
}

export const WRITE_FILE_DESCRIPTION =
  'Write a whole file in an environment (a persistent working folder), creating folders. Then run it with run_command.'
export function createWriteFileTool(ctx: ToolContext) {
  return tool({
    description: WRITE_FILE_DESCRIPTION,
    inputSchema: WriteFileInput.extend({ environment }),
    execute: call(ctx, 'write_file'),
  })
}

export const READ_FILE_DESCRIPTION =
  'Read a text file of an environment by lines (offset/limit for long files).'
export function createReadFileTool(ctx: ToolContext) {
  return tool({
    description: READ_FILE_DESCRIPTION,
    inputSchema: ReadFileInput.extend({ environment }),
    execute: call(ctx, 'read_file'),
  })
}

export const EDIT_FILE_DESCRIPTION =
  'Replace one exact piece of text in an environment file (fails when it occurs 0 or several times).'
export function createEditFileTool(ctx: ToolContext) {
  return tool({
    description: EDIT_FILE_DESCRIPTION,
    inputSchema: EditFileInput.extend({ environment }),
    execute: call(ctx, 'edit_file'),
  })
}

export const LIST_DIRECTORY_DESCRIPTION = 'List the files of an environment folder with their sizes.'
export function createListDirectoryTool(ctx: ToolContext) {
  return tool({
    description: LIST_DIRECTORY_DESCRIPTION,
    inputSchema: ListDirectoryInput.extend({ environment }),
    execute: call(ctx, 'list_directory'),
  })
}

export const SEARCH_FILES_DESCRIPTION =
  'Search the files of an environment for a regular expression (on a connected machine: literal text): file:line: text.'
export function createSearchFilesTool(ctx: ToolContext) {
  return tool({
    description: SEARCH_FILES_DESCRIPTION,
    inputSchema: SearchFilesInput.extend({ environment }),
    execute: call(ctx, 'search_files'),
  })
}

export const RUN_COMMAND_DESCRIPTION =
  'Run a shell command in an environment folder (sandboxed: node, python3, bash, npm, pip --target; ' +
  'or on a connected machine when the environment says so). ' +
  'Returns the full stdout, stderr, exit code and duration. Read errors, fix files, run again.'
export function createRunCommandTool(ctx: ToolContext) {
  return tool({
    description: RUN_COMMAND_DESCRIPTION,
    inputSchema: RunCommandInput,
    // Chat only: a command the policy (the org's layer included) marks "ask" waits for the person.
    // Runs deny it in execute.
    needsApproval: async (input) => {
      if (ctx.mode !== 'chat') return false
      try {
        const { name, runId } = refOf(ctx, input)
        const opened = await openEnvironment(ctx.caller, name, 'use', { runId, prepare: false })
        return (
          (await judgeCommand(opened.policy, input.command, { tenant: ctx.caller.userId })).decision === 'ask'
        )
      } catch {
        return false // execute reports the error
      }
    },
    execute: async function* ({ environment: name, command, timeoutSeconds }) {
      yield* withBootstrapProgress(async (onBootstrap) => {
        try {
          // In chat, execute only follows an approval when needsApproval asked for one.
          const request = { command, timeoutSeconds, mode: ctx.mode, approved: ctx.mode === 'chat' }
          return await runOperated(ctx, name, request, onBootstrap)
        } catch (err) {
          return toToolFailure(err, 'run_command')
        }
      })
    },
  })
}

/**
 * Runs a command through the environment's provider and shapes the result for the model: the files
 * the command changed (on this server or a connected machine) and the self-made skills it wrote.
 */
async function runOperated(
  ctx: ToolContext,
  name: string | undefined,
  request: RunCommandRequest,
  onBootstrap: BootstrapWatcher,
) {
  const { environment, result: outcome } = await operate(
    ctx.caller,
    refOf(ctx, { environment: name }),
    'run_command',
    request,
    origin(ctx),
    false,
    onBootstrap,
  )
  if (outcome.status !== 'ran') {
    const reason = outcome.status === 'denied' ? outcome.reason : `needs approval: ${outcome.reason}`
    return {
      ok: false as const,
      error: { status: 403, code: 'denied', message: reason },
      rule: outcome.rule,
    }
  }
  const { result } = outcome
  return {
    ok: true as const,
    environment,
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: result.durationMs,
    timedOut: result.timedOut,
    // What isolated the command (sandbox-runtime, bwrap, docker or a machine): people and the
    // model see where it ran.
    mechanism: result.mechanism,
    decision: outcome.decision,
    // A refused connection can still exit 0: say so, so neither the agent nor the transcript reads it as done.
    ...(result.networkBlocked
      ? { networkBlocked: result.networkBlocked, refusal: describeNetworkRefusal(result.networkBlocked) }
      : {}),
    ...(outcome.files ? { files: outcome.files } : {}),
    ...(outcome.skills ? { skills: outcome.skills } : {}),
  }
}

const RunScriptInput = z.strictObject({
  environment,
  name: z.string().min(1).max(64).describe('A script named in the definition\'s `scripts`, e.g. "test"'),
})

export const RUN_SCRIPT_DESCRIPTION =
  "Run one of the environment's named scripts (its definition's `scripts`, e.g. test), under the same policy as run_command."
export function createRunScriptTool(ctx: ToolContext) {
  const scriptOf = async (input: z.infer<typeof RunScriptInput>) => {
    const { name, runId } = refOf(ctx, input)
    // The definition's scripts and policy only: running the script builds the tree.
    const opened = await openEnvironment(ctx.caller, name, 'use', { runId, prepare: false })
    const command = opened.definition.scripts[input.name]
    if (!command) {
      const known = Object.keys(opened.definition.scripts)
      throw badRequest(
        `name: no script ${input.name} in ${opened.row.name}; ${known.length ? `scripts: ${known.join(', ')}` : 'it defines no scripts'}`,
        'name',
      )
    }
    return { opened, command }
  }
  return tool({
    description: RUN_SCRIPT_DESCRIPTION,
    inputSchema: RunScriptInput,
    // Like run_command: the org's layer included, "ask" waits for the person in chat only.
    needsApproval: async (input) => {
      if (ctx.mode !== 'chat') return false
      try {
        const { opened, command } = await scriptOf(input)
        return (await judgeCommand(opened.policy, command, { tenant: ctx.caller.userId })).decision === 'ask'
      } catch {
        return false
      }
    },
    execute: async function* (input) {
      yield* withBootstrapProgress(async (onBootstrap) => {
        try {
          const { command } = await scriptOf(input)
          const request = { command, mode: ctx.mode, approved: ctx.mode === 'chat' }
          const ran = await runOperated(ctx, input.environment, request, onBootstrap)
          return ran.ok ? { script: input.name, command, ...ran } : ran
        } catch (err) {
          return toToolFailure(err, 'run_script')
        }
      })
    },
  })
}
