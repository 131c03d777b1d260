/**
 * Calls between instances: any instance can serve a machine call by forwarding it to the instance
 * that holds the machine's socket (recorded in `machines.instance_url`), over internal HTTP with
 * a bearer derived from the app secret. Output is not streamed across instances: the forwarded
 * call answers with the final result. Ending a connection (revoked, disconnected, replaced) goes
 * the same way, so it holds whichever instance the request arrived at.
 */
import { z } from 'zod'
import { HttpError, unauthorized, type ErrorBody } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { CLOSE_REASONS, connections, type CloseReason, type MachineConnection } from './connection.ts'
import { FORWARD_PATH, forwardToken, instanceId, isForwardToken } from './instance.ts'
import type { MachineCalls, MachineMethod } from './protocol.ts'
import { CLEANUP_TIMEOUT_MS, deliverStopsLocally } from './stops.ts'
import { isLive, markDisconnected, type MachineRow } from './store.ts'

const METHODS = [
  'run_command',
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'search_files',
  'stop',
  'disconnect',
] as const

const ForwardInput = z.strictObject({
  ownerId: z.string().min(1),
  machineId: z.string().min(1),
  method: z.enum(METHODS),
  params: z.record(z.string(), z.unknown()),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3_600_000),
})
type ForwardInput = z.infer<typeof ForwardInput>

export async function forwardCall<M extends MachineMethod>(
  row: MachineRow,
  input: {
    ownerId: string
    machineId: string
    method: M
    params: MachineCalls[M]['params']
    timeoutMs: number
  },
  offline: () => Error,
): Promise<MachineCalls[M]['result']> {
  return post(row, input, offline)
}

/** Posts a call to the instance `row` names; its result, or its error as an HttpError. */
async function post<T>(row: MachineRow, input: ForwardInput, offline: () => Error): Promise<T> {
  let res: Response
  try {
    res = await fetch(row.instanceUrl + FORWARD_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forwardToken()}` },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(input.timeoutMs + 5_000),
    })
  } catch {
    throw offline() // the holder is gone or unreachable
  }
  const body = (await res.json().catch(() => null)) as { result: T } | ErrorBody | null
  if (res.ok && body && 'result' in body) return body.result
  const error =
    body && 'error' in body
      ? body.error
      : { code: 'machine_error', message: `forwarding failed (${res.status})` }
  throw new HttpError(res.status >= 400 ? res.status : 502, error.code, error.message)
}

/** Serves a forwarded call on the instance that holds the socket. */
export async function serveForwardedCall(request: Request): Promise<{ result: unknown }> {
  if (!isForwardToken(request.headers.get('authorization'))) throw unauthorized('Not an instance of this app')
  const input: ForwardInput = parseInput(ForwardInput, await request.json().catch(() => null))
  const conn = connections.get(input.ownerId, input.machineId)
  if (input.method === 'disconnect') {
    const reason = parseInput(
      z.object({ reason: z.enum(Object.keys(CLOSE_REASONS) as [CloseReason]) }),
      input.params,
    )
    if (conn) await endHere(conn, reason.reason)
    return { result: { closed: !!conn } }
  }
  if (!conn) throw new HttpError(503, 'machine_offline', `machine ${input.machineId} is not connected here`)
  if (input.method === 'stop')
    return { result: { stopped: (await deliverStopsLocally(input.ownerId, input.machineId)) ?? 0 } }
  return { result: await conn.call(input.method, input.params as never, input.timeoutMs) }
}

/**
 * Ends a connection this instance holds and marks its machine offline before returning: the
 * socket's close handler would do it too, but later, and a list read right after a revoke or a
 * Disconnect must not still say online.
 */
async function endHere(conn: MachineConnection, reason: CloseReason): Promise<void> {
  conn.end(reason)
  connections.remove(conn)
  await markDisconnected(conn.ownerId, conn.machineId, conn.connectionId)
}

/**
 * Ends the live connection of (owner, machine) for `reason`, wherever it is held: here, or on the
 * instance its record names. True when one was open. An unreachable holder is logged: it ends the
 * connection itself within 30 s when the token was revoked (endpoint.ts checks it), and a record
 * it stops refreshing goes offline.
 */
export async function closeConnection(
  ownerId: string,
  machineId: string,
  row: MachineRow | undefined,
  reason: CloseReason,
): Promise<boolean> {
  const local = connections.get(ownerId, machineId)
  if (local) {
    await endHere(local, reason)
    return true
  }
  if (!row || !isLive(row) || row.instanceId === instanceId() || !row.instanceUrl) return false
  const input = {
    ownerId,
    machineId,
    method: 'disconnect' as const,
    params: { reason },
    timeoutMs: CLEANUP_TIMEOUT_MS,
  }
  try {
    const { closed } = await post<{ closed: boolean }>(row, input, () => new Error('holder unreachable'))
    return closed
  } catch (err) {
    logger.warn(
      { err, machine: machineId, reason },
      'could not reach the instance holding a machine to end it',
    )
    return false
  }
}
