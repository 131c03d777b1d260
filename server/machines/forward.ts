/**
 * Calls between instances: any instance can serve a machine call by forwarding it to the instance
 * that holds the machine's socket (recorded in `machines.instance_url`), over internal HTTP with
 * a bearer derived from the app secret. Output is not streamed across instances: the forwarded
 * call answers with the final result.
 */
import { z } from 'zod'
import { HttpError, unauthorized, type ErrorBody } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { connections } from './connection.ts'
import { FORWARD_PATH, forwardToken, isForwardToken } from './instance.ts'
import type { MachineCalls, MachineMethod } from './protocol.ts'
import { deliverStopsLocally } from './stops.ts'
import type { MachineRow } from './store.ts'

const METHODS = [
  'run_command',
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'search_files',
  'stop',
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
  const body = (await res.json().catch(() => null)) as
    { result: MachineCalls[M]['result'] } | ErrorBody | null
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
  if (!conn) throw new HttpError(503, 'machine_offline', `machine ${input.machineId} is not connected here`)
  if (input.method === 'stop')
    return { result: { stopped: (await deliverStopsLocally(input.ownerId, input.machineId)) ?? 0 } }
  return { result: await conn.call(input.method, input.params as never, input.timeoutMs) }
}
