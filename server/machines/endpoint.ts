/**
 * The WebSocket endpoint machines connect to. The bearer token is checked in the HTTP `upgrade`
 * handler, before any socket exists (401 otherwise); the client then registers and is served.
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { z } from 'zod'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { connections, MachineConnection } from './connection.ts'
import { instanceId, instanceUrl } from './instance.ts'
import { deliverStops, STOP_RETRY_MS } from './stops.ts'
import { markConnected, markDisconnected, touchMachine } from './store.ts'
import { verifyMachineToken } from './tokens.ts'

export const CONNECT_PATH = '/_agent-native/machines/connect'
const REGISTER_WITHIN_MS = 10_000

const RegisterInput = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, { error: 'letters, digits, "_", "-", "." (max 63)' }),
  label: z.string().trim().min(1).max(100),
  os: z.string().max(200),
  version: z.string().max(50),
  dir: z.string().max(1000),
  activeRuns: z.array(z.string().max(200)).max(1000).default([]),
})

function refuse(socket: Duplex, status: number, text: string, message: string) {
  const body = JSON.stringify({ error: { code: status === 401 ? 'unauthorized' : 'not_found', message } })
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** Handles upgrades to {@link CONNECT_PATH} on `server`; other upgrades (Vite's HMR) are left alone. */
export function attachMachineEndpoint(server: Server): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 })
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== CONNECT_PATH) return
    const token = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? ''
    verifyMachineToken(token).then(
      (owner) => {
        if (!owner) return refuse(socket, 401, 'Unauthorized', 'Unknown or revoked machine token')
        wss.handleUpgrade(req, socket, head, (ws) => serve(ws, owner.ownerId, owner.tokenId))
      },
      (err: unknown) => {
        logger.error({ err }, 'machine token check failed')
        socket.destroy()
      },
    )
  }
  server.on('upgrade', onUpgrade)
  return {
    close() {
      server.off('upgrade', onUpgrade)
      for (const conn of connections.all()) conn.close('the server is shutting down')
      wss.close()
    },
  }
}

function serve(ws: WebSocket, ownerId: string, tokenId: string) {
  let conn: MachineConnection | undefined
  let retry: NodeJS.Timeout | undefined
  const unregistered = setTimeout(() => ws.close(4001, 'register first'), REGISTER_WITHIN_MS)
  // Until it registers, the socket answers only `register`; afterwards the connection's own RPC.
  const boot = new MachineConnection(ownerId, '', 'unregistered machine', ws)
  boot.rpc.addMethod('register', async (params) => {
    if (conn) return { ok: true }
    const input = parseInput(RegisterInput, params)
    clearTimeout(unregistered)
    conn = boot
    Object.assign(conn, { machineId: input.id, label: input.label })
    connections.add(conn)
    await markConnected({
      ownerId,
      id: input.id,
      label: input.label,
      os: input.os,
      version: input.version,
      dir: input.dir,
      tokenId,
      instanceId: instanceId(),
      instanceUrl: instanceUrl(),
      connectionId: conn.connectionId,
    })
    logger.info({ ownerId, machine: input.id }, 'machine connected')
    const registered = conn
    setImmediate(() => void deliverStops(registered))
    retry = setInterval(() => {
      void touchMachine(ownerId, registered.machineId, registered.connectionId)
      void deliverStops(registered)
    }, STOP_RETRY_MS)
    return { ok: true, instance: instanceId() }
  })
  ws.on('message', (data) => {
    let payload: unknown
    try {
      payload = JSON.parse(String(data))
    } catch {
      return ws.close(1003, 'not JSON')
    }
    void boot.rpc.receiveAndSend(payload)
  })
  ws.on('close', () => {
    clearTimeout(unregistered)
    clearInterval(retry)
    boot.close('the connection closed')
    if (!conn) return
    connections.remove(conn)
    void markDisconnected(ownerId, conn.machineId, conn.connectionId).catch((err: unknown) =>
      logger.warn({ err }, 'could not mark machine offline'),
    )
    logger.info({ ownerId, machine: conn.machineId }, 'machine disconnected')
  })
}
