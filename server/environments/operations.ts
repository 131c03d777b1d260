/**
 * The six environment operations as one use case each, wherever the environment lives: on this
 * instance or a connected machine they run through the environment's provider (writes and
 * commands audited); for a folder on another instance the whole operation, policy and audit
 * included, is forwarded there (remote.ts). The agent's tools, the forwarded call and the
 * environment page all come through here.
 */
import type { Caller } from '../access/caller.ts'
import type { CommandMode, CommandOutcome } from './commands.ts'
import type { EnvironmentProvider } from './provider-schema.ts'
import { providerFor } from './providers.ts'
import { forwardOperation } from './remote.ts'
import {
  auditWrite,
  openEnvironment,
  runInEnvironment,
  type OpenEnvironment,
  type Origin,
} from './service.ts'

export type RunCommandRequest = {
  command: string
  timeoutSeconds?: number
  mode: CommandMode
  approved?: boolean
}

type Op<M extends keyof EnvironmentProvider> = {
  input: Parameters<EnvironmentProvider[M]>[0]
  result: Awaited<ReturnType<EnvironmentProvider[M]>>
}

/** Each operation: its input and what it answers. */
export type Operations = {
  write_file: Op<'writeFile'>
  read_file: Op<'readFile'>
  edit_file: Op<'editFile'>
  list_directory: Op<'listDirectory'>
  search_files: Op<'searchFiles'>
  run_command: { input: RunCommandRequest; result: CommandOutcome }
}
export type OperationName = keyof Operations

/** What an operation needs of the caller: to work in the environment, or only to see it. */
export const NEEDS: Record<OperationName, 'view' | 'use'> = {
  write_file: 'use',
  read_file: 'view',
  edit_file: 'use',
  list_directory: 'view',
  search_files: 'view',
  run_command: 'use',
}

/** Which environment a call names: its name, or none (a job run's own scratch, else `scratch`). */
export type EnvironmentRef = { name?: string | null; runId?: string }

/** Opens the environment and performs `op` there, forwarding when its folder is elsewhere. */
export async function operate<K extends OperationName>(
  caller: Caller,
  ref: EnvironmentRef,
  op: K,
  input: Operations[K]['input'],
  origin: Origin = {},
  forwarded = false,
): Promise<{ environment: string; result: Operations[K]['result'] }> {
  const opened = await openEnvironment(caller, ref.name, NEEDS[op], { runId: ref.runId })
  if (opened.elsewhere) {
    const result = await forwardOperation(caller, opened, { ref, op, input, origin }, forwarded)
    return { environment: opened.row.name, result: result as Operations[K]['result'] }
  }
  return { environment: opened.row.name, result: await perform(caller, opened, op, input, origin) }
}

async function perform<K extends OperationName>(
  caller: Caller,
  opened: OpenEnvironment,
  op: K,
  input: Operations[K]['input'],
  origin: Origin,
): Promise<Operations[K]['result']> {
  const provider = providerFor(opened.target, opened.files)
  const written = async <R extends { path: string; bytes: number }>(result: R) => {
    await auditWrite(caller, opened, result.path, result.bytes, origin)
    return result
  }
  const ops: {
    [Op in OperationName]: (input: Operations[Op]['input']) => Promise<Operations[Op]['result']>
  } = {
    write_file: async (i) => written(await provider.writeFile(i)),
    edit_file: async (i) => written(await provider.editFile(i)),
    read_file: (i) => provider.readFile(i),
    list_directory: (i) => provider.listDirectory(i),
    search_files: (i) => provider.searchFiles(i),
    run_command: (i) => runInEnvironment(caller, opened, i, origin),
  }
  return ops[op](input)
}
