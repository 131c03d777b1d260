/**
 * Where an environment's tools act, chosen by its definition's `provider`. Every provider answers
 * the same six operations; the environments service decides the policy and writes the audit around
 * them, so a provider only moves bytes. `local`: this server's folder, commands sandboxed (exec.ts,
 * files*.ts). `machine:<id>`: a person's connected machine (server/machines/provider.ts), in the
 * directory they chose.
 *
 * To add a provider: a `ProviderTarget` kind in `resolveTarget`, an `EnvironmentProvider` in
 * `providerFor`, its file watcher in `watcherFor`, and its stop in `stopCommands`.
 */
import { isOrgAdmin, type Caller } from '../../access/caller.ts'
import { findMembership } from '../../accounts/store.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { machineNotFound } from '../../machines/errors.ts'
import { machineProvider } from '../../machines/provider.ts'
import { findMachine } from '../../machines/store.ts'
import { runCommand, type ExecOptions } from '../exec/exec.ts'
import type { ExecEnvironment } from '../exec/exec-schema.ts'
import { editFile, readFile, type FileContext, writeFile } from '../files/files.ts'
import { listDirectory } from '../files/files-list.ts'
import { searchFiles } from '../exec/search-files.ts'
import type { EnvironmentProvider, ProviderTarget } from './provider-schema.ts'
import { assertDockerSecretNames } from '../definition/docker-cli-env.ts'
import { dockerExec, stopDocker } from './providers-docker.ts'
import { assertNoMachineSecrets, machineFiles, machineLister } from './providers-machine.ts'
import { diskScanner } from '../watch/watch-disk.ts'
import { byListing, pollTree } from '../watch/watch-poll.ts'
import type { Watcher } from '../watch/watch.ts'

export { folderHere, type EnvironmentProvider, type ProviderTarget } from './provider-schema.ts'

/**
 * Resolves `provider` for a caller who may already see the environment. A machine is its owner's,
 * named explicitly (docs/decisions/0221): the person whose personal environment names it, or for a
 * shared environment the creator of its definition, who must still be a member of the
 * organisation. An admin editing the definition does not move it to the admin's machine, and
 * nobody else's edit can (only the creator and admins may edit it). Its owner and the org's
 * admins use it; anyone else, and an id the owner never connected, gets a 404.
 */
export async function resolveTarget(
  caller: Caller,
  env: {
    name: string
    orgId: string
    provider: string
    secrets: string[]
    machineOwner: string | null | undefined
  },
): Promise<ProviderTarget> {
  if (env.provider === 'docker') {
    // Also for a definition saved before such names were refused at save.
    assertDockerSecretNames(env.secrets)
    return { kind: 'docker' }
  }
  if (!env.provider.startsWith('machine:')) return { kind: 'local' }
  const machineId = env.provider.slice('machine:'.length)
  const ownerId = env.machineOwner
  if (!ownerId || (ownerId !== caller.userId && !isOrgAdmin(caller))) {
    throw notFound(`No environment named ${env.name}`)
  }
  if (ownerId !== caller.userId && !(await findMembership(ownerId, env.orgId))) {
    throw forbidden(
      `provider: the machine of ${env.name} belongs to its creator, who is no longer a member of the organisation`,
    )
  }
  if (!(await findMachine(ownerId, machineId))) throw machineNotFound(machineId)
  assertNoMachineSecrets(env.secrets)
  return { kind: 'machine', ownerId, machineId }
}

/** The operations of an environment whose folder (or machine) this instance can reach. */
export function providerFor(target: ProviderTarget, files: FileContext): EnvironmentProvider {
  if (target.kind === 'machine') return machineFiles(target, files.redact)
  return {
    // docker: the same folder on this server (so the same file tools), commands in a container.
    exec: (env, command, opts) =>
      target.kind === 'docker' ? dockerExec(env, command, opts) : localExec(env, command, opts),
    writeFile: (input) => writeFile(files, input),
    readFile: (input) => readFile(files, input),
    editFile: (input) => editFile(files, input),
    listDirectory: (input) => listDirectory(files, input),
    searchFiles: (input) => searchFiles(files, input),
  }
}

/** The local commands going, by stop key: a stop kills their process trees, as `stopDocker` its containers. */
const runningHere = new Map<string, Set<AbortController>>()

function localExec(env: ExecEnvironment, command: string, opts: ExecOptions & { stopKey: string }) {
  return stoppable(opts.stopKey, (stop) =>
    runCommand(env, command, { ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, stop]) : stop }),
  )
}

/**
 * Runs `work` with a signal that a stop of `stopKey` aborts (`stopCommands`), as a local command
 * is: a build on this server (its clones and setup steps) stops with the run or turn it is for.
 */
export function stoppable<T>(stopKey: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const going = runningHere.get(stopKey) ?? new Set()
  runningHere.set(stopKey, going.add(controller))
  return work(controller.signal).finally(() => {
    going.delete(controller)
    if (going.size === 0 && runningHere.get(stopKey) === going) runningHere.delete(stopKey)
  })
}

function stopLocal(prefix: string) {
  for (const [key, going] of runningHere) {
    if (key.startsWith(prefix)) for (const controller of going) controller.abort(new Error('stopped'))
  }
}

/**
 * How file events are watched there (watch.ts): a poll over a listing, a machine's own for a
 * machine, a `find` child over this disk for `local` and `docker` (its container bind-mounts this
 * server's folder).
 */
export function watcherFor(target: ProviderTarget, root: string): Watcher {
  if (target.kind === 'machine') return () => pollTree(byListing(machineLister(target)))
  return () => pollTree(diskScanner(root))
}

/**
 * The key a command is stopped by: its job run, else its chat turn (`<thread>/<turn>`: a stopped
 * turn must not block the thread's next ones).
 */
export function stopKeyFor(origin: { runId?: string; threadId?: string; turnId?: string }): string {
  if (origin.runId) return origin.runId
  if (origin.threadId && origin.turnId) return `${origin.threadId}/${origin.turnId}`
  return newId('cmd')
}

/**
 * Stops every command a job run, or every command of a chat thread's turns, started on any
 * provider (local commands' process trees and docker containers on this instance are killed;
 * machines get a stop, kept and delivered on reconnect when they are offline).
 */
export async function stopCommands(key: { runId: string } | { threadId: string }) {
  const prefix = 'runId' in key ? key.runId : `${key.threadId}/`
  stopLocal(prefix)
  stopDocker(prefix)
  return machineProvider.stop(prefix)
}
