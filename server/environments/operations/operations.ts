/**
 * The six environment operations as one use case each, wherever the environment lives: on this
 * instance or a connected machine they run through the environment's provider (writes and
 * commands audited); for a folder on another instance the whole operation, policy and audit
 * included, is forwarded there (remote.ts). The agent's tools, the forwarded call and the
 * environment page all come through here.
 */
import type { Caller } from '../../access/caller.ts'
import { afterWrite, watchWhile } from './activity.ts'
import { type BootstrapWatcher, followRecordedBootstrap } from '../bootstrap/bootstrap-watch.ts'
import type { CommandMode, CommandOutcome } from '../exec/commands.ts'
import type { EnvironmentProvider } from '../providers/provider-schema.ts'
import { folderHere, providerFor } from '../providers/providers.ts'
import type { SkillRefusal, SkillView } from '../skills/skills.ts'
import type { FileEvent } from '../watch/watch.ts'
import { forwardOperation } from './remote.ts'
import {
  auditWrite,
  openEnvironment,
  runInEnvironment,
  workingIn,
  type OpenEnvironment,
  type Origin,
  type Watched,
} from '../service.ts'
import { assertAuditAllowance } from '../../accounts/audit-allowance.ts'

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

/**
 * A self-made skill a write or a command stored as pending (a person approves it), or refused
 * because the name is another person's skill.
 */
export type NoticedSkill = {
  name: string
  status: SkillView['status'] | SkillRefusal['status']
  note?: string
}

const noticed = (skill: SkillView | SkillRefusal): NoticedSkill =>
  'reason' in skill
    ? { name: skill.name, status: skill.status, note: skill.reason }
    : { name: skill.name, status: skill.status }
/** A write that made a self-made skill says so. */
type Written<M extends 'writeFile' | 'editFile'> = {
  input: Op<M>['input']
  result: Op<M>['result'] & { skill?: NoticedSkill }
}
/** What a command changed in the folder, and the self-made skills it wrote. */
export type CommandActivity = { files?: FileEvent[]; skills?: NoticedSkill[] }

/** Each operation: its input and what it answers. */
export type Operations = {
  write_file: Written<'writeFile'>
  read_file: Op<'readFile'>
  edit_file: Written<'editFile'>
  list_directory: Op<'listDirectory'>
  search_files: Op<'searchFiles'>
  run_command: { input: RunCommandRequest; result: CommandOutcome & CommandActivity }
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

/**
 * Opens the environment and performs `op` there, forwarding when its folder is elsewhere.
 * `onBootstrap` follows a build the call runs or waits for: here as it is saved, or as the
 * holding instance records it.
 */
export async function operate<K extends OperationName>(
  caller: Caller,
  ref: EnvironmentRef,
  op: K,
  input: Operations[K]['input'],
  origin: Origin = {},
  forwarded = false,
  onBootstrap?: BootstrapWatcher,
): Promise<{ environment: string; result: Operations[K]['result'] }> {
  const opened = await openEnvironment(caller, ref.name, NEEDS[op], { runId: ref.runId, onBootstrap, origin })
  const following =
    onBootstrap && opened.elsewhere ? await followRecordedBootstrap(opened.row.id, onBootstrap) : null
  try {
    return {
      environment: opened.row.name,
      result: await operateOn(caller, opened, ref, op, input, origin, forwarded),
    }
  } finally {
    await following?.stop()
  }
}

/**
 * `op` in an environment the caller already opened (as `ref` names it; the environment pages
 * check which one first): performed here, or forwarded when its folder is elsewhere.
 */
export async function operateOn<K extends OperationName>(
  caller: Caller,
  opened: OpenEnvironment,
  ref: EnvironmentRef,
  op: K,
  input: Operations[K]['input'],
  origin: Origin = {},
  forwarded = false,
): Promise<Operations[K]['result']> {
  if (opened.elsewhere) {
    const result = await forwardOperation(caller, opened, { ref, op, input, origin }, forwarded)
    return result as Operations[K]['result']
  }
  return perform(caller, opened, op, input, origin)
}

/** The operations an audit row records. */
const AUDITED = new Set<OperationName>(['write_file', 'edit_file', 'run_command'])

async function perform<K extends OperationName>(
  caller: Caller,
  opened: OpenEnvironment,
  op: K,
  input: Operations[K]['input'],
  origin: Origin,
): Promise<Operations[K]['result']> {
  // What writes or runs is recorded in the audit: refused before it acts once its person's
  // actions filled the day's allowance (decision 0500).
  if (AUDITED.has(op)) await assertAuditAllowance(caller.userId)
  const provider = providerFor(opened.target, opened.files)
  // Self-made skills are read from the folder, so only one on this server's disk makes them.
  const local = folderHere(opened.target)
  const written = async <R extends { path: string; bytes: number }>(result: R) => {
    await auditWrite(caller, opened, result.path, result.bytes, origin)
    const skill = local ? await afterWrite(caller, opened, result.path) : undefined
    return skill ? { ...result, skill: noticed(skill) } : result
  }
  // Every command is watched, wherever it runs (a machine by polling): its file events are
  // answered and recorded. A person's command box writes no self-made skills (only the agent does).
  const runCommand = async (i: RunCommandRequest): Promise<CommandOutcome & CommandActivity> => {
    const run = (watched: Watched) => runInEnvironment(caller, opened, i, origin, watched)
    const watched = await watchWhile(caller, opened, origin, run, { skills: local && i.mode !== 'person' })
    const skills = watched.skills.map(noticed)
    return { ...watched.result, files: watched.files, ...(skills.length > 0 ? { skills } : {}) }
  }
  const ops: {
    [Op in OperationName]: (input: Operations[Op]['input']) => Promise<Operations[Op]['result']>
  } = {
    write_file: async (i) => written(await provider.writeFile(i)),
    edit_file: async (i) => written(await provider.editFile(i)),
    read_file: (i) => provider.readFile(i),
    list_directory: (i) => provider.listDirectory(i),
    search_files: (i) => provider.searchFiles(i),
    run_command: runCommand,
  }
  // A file operation counts as in use as a command does (which counts itself, around its run
  // only): a write landing while a delete empties the folder would fail the delete or itself,
  // and a read would fail on a folder going (decision 0472).
  if (op === 'run_command') return ops[op](input)
  return workingIn(opened.row, () => ops[op](input))
}
