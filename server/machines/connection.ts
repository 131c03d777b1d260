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
import { logger } from '../lib/logger.ts'
import { newId } from '../lib/ids.ts'
import { singleton } from '../lib/singleton.ts'
import { machineDisconnected, machineTimeout } from './errors.ts'
import {
  CLIENT_ERRORS,
  CLOSE_CODES,
  MAX_OUTPUT_BYTES,
  notStreamedMarker,
  type MachineCalls,
  type MachineMethod,
  type OutputParams,
} from './protocol.ts'
import { checkReply, OutputNotice } from './replies.ts'

export type OnOutput = (out: Omit<OutputParams, 'callId'>) => void

/** A call's listener for streamed output, and the bytes of each stream it may still be given. */
type Listener = { onOutput: OnOutput; cap: number; left: Record<OutputParams['stream'], number> }

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
  private readonly outputs = new Map<string, Listener>()
  closedBecause: string | undefined

  constructor(
    readonly ownerId: string,
    /** The token it connected with: revoking it ends the connection. */
    readonly tokenId: string,
    public machineId: string,
    public label: string,
    readonly ws: WebSocket,
  ) {
    // What a client calls wrongly (a refused registration, a message that is not JSON-RPC) is
    // answered to the client or ends its connection; by default each was also written to the
    // console with its stack, as often as a hostile client liked (decision 0419).
    const errorListener = (message: string, data: unknown) => logger.debug({ data }, message)
    this.rpc = new JSONRPCServerAndClient(
      new JSONRPCServer({ errorListener }),
      new JSONRPCClient((payload) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload))
      }),
      { errorListener },
    )
    this.rpc.addMethod('output', (params) => {
      const out = OutputNotice.safeParse(params)
      if (out.success) this.deliver(out.data)
    })
  }

  /**
   * Gives a call's listener what the client streamed, up to the call's cap per stream, then a
   * marker once: a client that streams without end costs the server no more than the cap.
   */
  private deliver({ callId, stream, text }: OutputParams) {
    const listener = this.outputs.get(callId)
    if (!listener || listener.left[stream] < 0) return
    const bytes = Buffer.from(text, 'utf8')
    if (bytes.length <= listener.left[stream]) {
      listener.left[stream] -= bytes.length
      return listener.onOutput({ stream, text })
    }
    const kept = bytes.subarray(0, listener.left[stream]).toString('utf8')
    listener.left[stream] = -1
    listener.onOutput({ stream, text: kept + notStreamedMarker(listener.cap) })
  }

  /** Calls the client; rejects at once when the connection goes, and after `timeoutMs`. */
  call<M extends MachineMethod>(
    method: M,
    params: MachineCalls[M]['params'],
    timeoutMs: number,
    onOutput?: OnOutput,
  ): Promise<MachineCalls[M]['result']> {
    if (this.closedBecause) return Promise.reject(machineDisconnected(this.label, this.closedBecause))
    const { callId, maxOutputBytes } = params as { callId?: string; maxOutputBytes?: number }
    if (callId && onOutput) {
      const cap = Math.min(maxOutputBytes ?? MAX_OUTPUT_BYTES, MAX_OUTPUT_BYTES)
      this.outputs.set(callId, { onOutput, cap, left: { stdout: cap, stderr: cap } })
    }
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
          (reply: unknown) => {
            done()
            const checked = checkReply(method, reply)
            if (checked.ok) return resolve(checked.result)
            reject(
              new HttpError(
                502,
                'machine_error',
                `machine ${this.label}: a bad reply to ${method} (${checked.why})`,
              ),
            )
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
