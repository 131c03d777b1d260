/**
 * The machines provider: what the environments domain calls to run commands and file operations
 * on a person's connected machine. It finds the (owner, id) machine, calls it over the socket this
 * process holds or forwards to the instance that holds it, and enforces the time limits: a call
 * waits at most 15 min plus its own requested duration; clean-up calls (stops) 10 s.
 */
import { HttpError } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { connections, type OnOutput } from './connection.ts'
import { machineNotFound, machineOffline } from './errors.ts'
import { forwardCall } from './forward.ts'
import { instanceId } from './instance.ts'
import type { MachineCalls, MachineMethod } from './protocol.ts'
import { CLEANUP_TIMEOUT_MS, deliverStopsLocally } from './stops.ts'
import { findMachine, isLive, recordRunUse, requestStop } from './store.ts'

export const CALL_GRACE_MS = 15 * 60_000

export type RunCommandInput = Omit<MachineCalls['run_command']['params'], 'callId'>
type Params<M extends MachineMethod> = MachineCalls[M]['params']
type Result<M extends MachineMethod> = MachineCalls[M]['result']

/** Calls `method` on the owner's machine wherever its socket is. */
export async function callMachine<M extends MachineMethod>(
  ownerId: string,
  machineId: string,
  method: M,
  params: Params<M>,
  timeoutMs: number,
  onOutput?: OnOutput,
): Promise<Result<M>> {
  const local = connections.get(ownerId, machineId)
  if (local) return local.call(method, params, timeoutMs, onOutput)
  const row = await findMachine(ownerId, machineId)
  if (!row) throw machineNotFound(machineId)
  if (!isLive(row) || row.instanceId === instanceId() || !row.instanceUrl) {
    throw machineOffline(row.label, row.lastSeenAt)
  }
  return forwardCall(row, { ownerId, machineId, method, params, timeoutMs }, () =>
    machineOffline(row.label, row.lastSeenAt),
  )
}

const fileCall =
  <M extends Exclude<MachineMethod, 'run_command' | 'stop'>>(method: M) =>
  (ownerId: string, machineId: string, params: Params<M>) =>
    callMachine(ownerId, machineId, method, params, CALL_GRACE_MS)

/** The typed API environments route `provider: machine:<id>` to. `owner` is a user id. */
export const machineProvider = {
  /** Runs `command` in the machine's directory (or `cwd` inside it); streams output to `onOutput`. */
  async runCommand(ownerId: string, machineId: string, input: RunCommandInput, onOutput?: OnOutput) {
    if (!(await findMachine(ownerId, machineId)) && !connections.get(ownerId, machineId)) {
      throw machineNotFound(machineId)
    }
    const { stopped } = await recordRunUse(ownerId, machineId, input.runId)
    if (stopped) throw new HttpError(409, 'run_stopped', `run ${input.runId} was stopped`)
    const params = { ...input, callId: newId('mcall') }
    return callMachine(ownerId, machineId, 'run_command', params, CALL_GRACE_MS + input.timeoutMs, onOutput)
  },
  readFile: fileCall('read_file'),
  writeFile: fileCall('write_file'),
  editFile: fileCall('edit_file'),
  listDirectory: fileCall('list_directory'),
  searchFiles: fileCall('search_files'),

  /**
   * Stops every command of `runId` on every machine it used (`<thread>/` stops all of a chat
   * thread's turns). Idempotent; a machine that cannot be reached gets the stop when it
   * reconnects (or from its holder's 30 s retry).
   */
  async stop(runId: string): Promise<{ machines: number; delivered: number }> {
    const targets = await requestStop(runId)
    let delivered = 0
    for (const { ownerId, machineId } of targets) {
      try {
        const local = await deliverStopsLocally(ownerId, machineId)
        if (local !== undefined) delivered += local > 0 ? 1 : 0
        else {
          // The holder delivers the machine's due stops (this one among them) and acknowledges.
          await callMachine(ownerId, machineId, 'stop', { runId }, CLEANUP_TIMEOUT_MS)
          delivered++
        }
      } catch {
        // offline or unreachable: kept in machine_runs, delivered on reconnect
      }
    }
    return { machines: targets.length, delivered }
  },
}

export type MachineProvider = typeof machineProvider
