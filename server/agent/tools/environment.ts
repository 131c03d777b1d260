/**
 * The environment tools: a working folder where the agent writes, runs, reads the full output and
 * errors, fixes and runs again. Every path is confined to the environment (server/environments/
 * paths.ts); commands run sandboxed under the environment's policy. `run_command` on a command the
 * policy marks `ask` stops at an approval card in chat (the AI SDK's needsApproval: the answer
 * comes in the person's next request, which the model cannot write); in an unattended run there is
 * nobody to ask, so it is denied and the reason is the tool result the transcript keeps.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { decideCommand, mergePolicies } from '../../environments/policy.ts'
import {
  EditFileInput,
  editFile,
  ListDirectoryInput,
  ReadFileInput,
  readFile,
  SearchFilesInput,
  WriteFileInput,
  writeFile,
} from '../../environments/files.ts'
import { listDirectory, searchFiles } from '../../environments/files-list.ts'
import {
  auditWrite,
  type OpenEnvironment,
  openEnvironment,
  runInEnvironment,
} from '../../environments/service.ts'
import { afterWrite, watchWhile } from '../../environments/activity.ts'
import type { SkillView } from '../../environments/skills.ts'
import { badRequest } from '../../lib/errors.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'

const environment = z
  .string()
  .optional()
  .describe("Environment name; default: the job's environment, else your personal scratch environment")

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

const origin = (ctx: ToolContext) => ({ threadId: ctx.threadId, runId: ctx.runId })
const envName = (ctx: ToolContext, input: { environment?: string }) =>
  input.environment ?? ctx.environment ?? undefined

function wrap<T>(name: string, run: () => Promise<T>) {
  return run().catch((err: unknown) => toToolFailure(err, name))
}

export const WRITE_FILE_DESCRIPTION =
  'Write a whole file in an environment (a persistent working folder), creating folders. Then run it with run_command.'
export function createWriteFileTool(ctx: ToolContext) {
  return tool({
    description: WRITE_FILE_DESCRIPTION,
    inputSchema: WriteFileInput.extend({ environment }),
    execute: (input) =>
      wrap('write_file', async () => {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'use')
        const result = await writeFile(opened.files, input)
        await auditWrite(ctx.caller, opened, result.path, result.bytes, origin(ctx))
        const skill = await afterWrite(ctx.caller, opened, result.path)
        return { ok: true as const, environment: opened.row.name, ...result, ...skillNote(skill) }
      }),
  })
}

export const READ_FILE_DESCRIPTION =
  'Read a text file of an environment by lines (offset/limit for long files).'
export function createReadFileTool(ctx: ToolContext) {
  return tool({
    description: READ_FILE_DESCRIPTION,
    inputSchema: ReadFileInput.extend({ environment }),
    execute: (input) =>
      wrap('read_file', async () => {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'view')
        return { ok: true as const, environment: opened.row.name, ...(await readFile(opened.files, input)) }
      }),
  })
}

export const EDIT_FILE_DESCRIPTION =
  'Replace one exact piece of text in an environment file (fails when it occurs 0 or several times).'
export function createEditFileTool(ctx: ToolContext) {
  return tool({
    description: EDIT_FILE_DESCRIPTION,
    inputSchema: EditFileInput.extend({ environment }),
    execute: (input) =>
      wrap('edit_file', async () => {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'use')
        const result = await editFile(opened.files, input)
        await auditWrite(ctx.caller, opened, result.path, result.bytes, origin(ctx))
        const skill = await afterWrite(ctx.caller, opened, result.path)
        return { ok: true as const, environment: opened.row.name, ...result, ...skillNote(skill) }
      }),
  })
}

export const LIST_DIRECTORY_DESCRIPTION = 'List the files of an environment folder with their sizes.'
export function createListDirectoryTool(ctx: ToolContext) {
  return tool({
    description: LIST_DIRECTORY_DESCRIPTION,
    inputSchema: ListDirectoryInput.extend({ environment }),
    execute: (input) =>
      wrap('list_directory', async () => {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'view')
        return {
          ok: true as const,
          environment: opened.row.name,
          ...(await listDirectory(opened.files, input)),
        }
      }),
  })
}

export const SEARCH_FILES_DESCRIPTION =
  'Search the files of an environment for a regular expression: file:line: text.'
export function createSearchFilesTool(ctx: ToolContext) {
  return tool({
    description: SEARCH_FILES_DESCRIPTION,
    inputSchema: SearchFilesInput.extend({ environment }),
    execute: (input) =>
      wrap('search_files', async () => {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'view')
        return {
          ok: true as const,
          environment: opened.row.name,
          ...(await searchFiles(opened.files, input)),
        }
      }),
  })
}

export const RUN_COMMAND_DESCRIPTION =
  'Run a shell command in an environment folder (sandboxed: node, python3, bash, npm, pip --target). ' +
  'Returns the full stdout, stderr, exit code and duration. Read errors, fix files, run again.'
export function createRunCommandTool(ctx: ToolContext) {
  return tool({
    description: RUN_COMMAND_DESCRIPTION,
    inputSchema: RunCommandInput,
    // Chat only: a command the policy marks "ask" waits for the person. Runs deny it in execute.
    needsApproval: async (input) => {
      if (ctx.mode !== 'chat') return false
      try {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'use')
        const { commands, default: fallback } = opened.definition.policy
        return (
          decideCommand(mergePolicies(undefined, { commands, default: fallback }), input.command).decision ===
          'ask'
        )
      } catch {
        return false // execute reports the error
      }
    },
    execute: (input) =>
      wrap('run_command', async () => {
        const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'use')
        // In chat, execute only follows an approval when needsApproval asked for one.
        return runWatched(ctx, opened, input.command, input.timeoutSeconds)
      }),
  })
}

/** What the agent is told when a file it wrote is a self-made skill. */
function skillNote(skill: SkillView | undefined) {
  return skill
    ? {
        skill: {
          name: skill.name,
          status: skill.status,
          note: 'A person must approve it on the Skills page',
        },
      }
    : {}
}

/** Runs a command (run_command, run_script) while watching the folder: the result lists changed files. */
async function runWatched(
  ctx: ToolContext,
  opened: OpenEnvironment,
  command: string,
  timeoutSeconds?: number,
) {
  const {
    result: outcome,
    files,
    skills,
  } = await watchWhile(ctx.caller, opened, origin(ctx), () =>
    runInEnvironment(
      ctx.caller,
      opened,
      { command, timeoutSeconds, mode: ctx.mode, approved: ctx.mode === 'chat' },
      origin(ctx),
    ),
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
    environment: opened.row.name,
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: result.durationMs,
    timedOut: result.timedOut,
    decision: outcome.decision,
    files,
    ...(skills.length > 0 ? { skills: skills.map((s) => ({ name: s.name, status: s.status })) } : {}),
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
    const opened = await openEnvironment(ctx.caller, envName(ctx, input), 'use')
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
    needsApproval: async (input) => {
      if (ctx.mode !== 'chat') return false
      try {
        const { opened, command } = await scriptOf(input)
        const { commands, default: fallback } = opened.definition.policy
        return (
          decideCommand(mergePolicies(undefined, { commands, default: fallback }), command).decision === 'ask'
        )
      } catch {
        return false
      }
    },
    execute: (input) =>
      wrap('run_script', async () => {
        const { opened, command } = await scriptOf(input)
        const ran = await runWatched(ctx, opened, command)
        return ran.ok ? { script: input.name, command, ...ran } : ran
      }),
  })
}
