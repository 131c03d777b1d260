/**
 * One live machine socket, speaking JSON-RPC both ways, and the per-process registry of them keyed
 * by (owner, id). A new connection with the same key replaces the old one, whose pending calls
 * fail at once with `machine_disconnected`.
 */
import {
  createJSONRPCErrorResponse,
  JSONRPCClient,
  JSONRPCErrorException,
  JSONRPCServer,
  JSONRPCServerAndClient,
} from 'json-rpc-2.0'
import type { WebSocket } from 'ws'
import { HttpError } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { singleton } from '../lib/singleton.ts'
import { machineDisconnected, machineTimeout } from './errors.ts'
import {
  CLIENT_ERRORS,
  CLOSE_CODES,
  type MachineCalls,
  type MachineMethod,
  type OutputParams,
} from './protocol.ts'

export type OnOutput = (out: Omit<OutputParams, 'callId'>) => void

/** Why the server ends a connection for good: the client is told (its close code) and exits. */
export const CLOSE_REASONS = {
  revoked: { code: CLOSE_CODES.revoked, why: 'its token was revoked (Settings → Machines)' },
  disconnected: { code: CLOSE_CODES.disconnected, why: 'disconnected by its owner in Settings → Machines' },
  replaced: { code: CLOSE_CODES.replaced, why: 'replaced by a new connection of the same machine' },
} as const
export type CloseReason = keyof typeof CLOSE_REASONS

export class MachineConnection {
  readonly connectionId = newId('mconn')
  readonly rpc: JSONRPCServerAndClient
  private readonly pending = new Set<(err: Error) => void>()
  private readonly outputs = new Map<string, OnOutput>()
  closedBecause: string | undefined

  constructor(
    readonly ownerId: string,
    /** The token it connected with: revoking it ends the connection. */
    readonly tokenId: string,
    public machineId: string,
    public label: string,
    readonly ws: WebSocket,
  ) {
    this.rpc = new JSONRPCServerAndClient(
      new JSONRPCServer(),
      new JSONRPCClient((payload) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload))
      }),
    )
    this.rpc.addMethod('output', (params) => {
      const out = params as OutputParams
      this.outputs.get(out.callId)?.({ stream: out.stream, text: out.text })
    })
  }

  /** Calls the client; rejects at once when the connection goes, and after `timeoutMs`. */
  call<M extends MachineMethod>(
    method: M,
    params: MachineCalls[M]['params'],
    timeoutMs: number,
    onOutput?: OnOutput,
  ): Promise<MachineCalls[M]['result']> {
    if (this.closedBecause) return Promise.reject(machineDisconnected(this.label, this.closedBecause))
    const callId = (params as { callId?: string }).callId
    if (callId && onOutput) this.outputs.set(callId, onOutput)
    return new Promise<MachineCalls[M]['result']>((resolve, reject) => {
      this.pending.add(reject)
      const done = () => {
        this.pending.delete(reject)
        if (callId) this.outputs.delete(callId)
      }
      this.rpc.client
        .timeout(timeoutMs, (id) =>
          createJSONRPCErrorResponse(id, -32099, 'timeout', { code: 'machine_timeout' }),
        )
        .request(method, params)
        .then(
          (result: MachineCalls[M]['result']) => {
            done()
            resolve(result)
          },
          (err: unknown) => {
            done()
            reject(this.toHttpError(err, timeoutMs))
          },
        )
    })
  }

  /** Fails every pending call with `machine_disconnected` and closes the socket. */
  close(why: string, code: number = CLOSE_CODES.going) {
    if (this.closedBecause) return
    this.closedBecause = why
    const err = machineDisconnected(this.label, why)
    for (const reject of this.pending) reject(err)
    this.pending.clear()
    this.rpc.rejectAllPendingRequests(why)
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) {
      this.ws.close(code, why.slice(0, 100))
    }
  }

  /** Ends the connection for one of {@link CLOSE_REASONS}. */
  end(reason: CloseReason) {
    this.close(CLOSE_REASONS[reason].why, CLOSE_REASONS[reason].code)
  }

  private toHttpError(err: unknown, timeoutMs: number): Error {
    if (this.closedBecause) return machineDisconnected(this.label, this.closedBecause)
    if (err instanceof JSONRPCErrorException) {
      const code = (err.data as { code?: string } | undefined)?.code
      if (code === 'machine_timeout') return machineTimeout(this.label, timeoutMs)
      if (code && code in CLIENT_ERRORS) {
        return new HttpError(CLIENT_ERRORS[code as keyof typeof CLIENT_ERRORS], code, err.message)
      }
      return new HttpError(502, 'machine_error', `machine ${this.label}: ${err.message}`)
    }
    return err instanceof Error ? err : new Error(String(err))
  }
}

const key = (ownerId: string, machineId: string) => `${ownerId}\u0000${machineId}`

/** The connections this process holds. */
export const connections = singleton('machines.connections', () => {
  const byKey = new Map<string, MachineConnection>()
  return {
    get: (ownerId: string, machineId: string) => byKey.get(key(ownerId, machineId)),
    /** Adds `conn`, closing (and failing the calls of) any connection it replaces. */
    add(conn: MachineConnection) {
      const k = key(conn.ownerId, conn.machineId)
      byKey.get(k)?.end('replaced')
      byKey.set(k, conn)
    },
    remove(conn: MachineConnection) {
      const k = key(conn.ownerId, conn.machineId)
      if (byKey.get(k) === conn) byKey.delete(k)
    },
    all: () => [...byKey.values()],
  }
})
