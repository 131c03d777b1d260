/**
 * The WebSocket endpoint machines connect to. The bearer token is checked in the HTTP `upgrade`
 * handler, before any socket exists (401 otherwise), as are the sockets already waiting to register
 * from its address and with its token (429 past MAX_WAITING, decision 0427); the client then
 * registers as the machine its token names, unless that machine is live elsewhere (then only with
 * `replace`) or the account is at its cap (USER_MAX_MACHINES), and is served until it goes, is
 * replaced, its token is revoked or its owner disconnects it (decisions 0223, 0224).
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { JSONRPCErrorException } from 'json-rpc-2.0'
import { WebSocketServer, type WebSocket } from 'ws'
import { z } from 'zod'
import { authRateLimited } from '../auth/auth.ts'
import { env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { jsonKeyProblems } from '../lib/json-keys.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { connections, MachineConnection } from './connection.ts'
import { closeConnection } from './forward.ts'
import { allMachinesMeter, createInboundMeter, INBOUND_RATES, isBatch, measureMessage } from './inbound.ts'
import { inTurn } from '../lib/in-turn.ts'
import { instanceId, instanceUrl } from './instance.ts'
import type { REGISTER_REFUSALS, RegisterResult } from './protocol.ts'
import { deliverStops, STOP_RETRY_MS } from './stops.ts'
import { isLive, markConnected, markDisconnected, touchMachine } from './store.ts'
import { countRefusedToken, waitForTokens } from '../tokens/guess-limit.ts'
import { isTokenLive, verifyMachineToken, type VerifiedToken } from './tokens.ts'
import { MAX_WAITING, WaitingPlaces } from './waiting.ts'

export const CONNECT_PATH = '/_agent-native/machines/connect'
const REGISTER_WITHIN_MS = 10_000

const MachineId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, { error: 'letters, digits, "_", "-", "." (max 63)' })

const RegisterInput = z.object({
  id: MachineId.optional(),
  label: z.string().trim().min(1).max(100).optional(),
  replace: z.boolean().default(false),
  os: z.string().max(200),
  version: z.string().max(50),
  dir: z.string().max(1000),
  activeRuns: z.array(z.string().max(200)).max(1000).default([]),
})
type RegisterInput = z.infer<typeof RegisterInput>

/** Answers an upgrade with an HTTP error and JSON body, as the API does; no socket is made. */
function refuse(socket: Duplex, status: number, code: string, message: string, headers = '') {
  const body = JSON.stringify({ error: { code, message } })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
  )
}

/**
 * Too many sockets wait to register from the address or with the token: a place comes free within
 * REGISTER_WITHIN_MS, when one of them registers or goes.
 */
function tooManyWaiting(socket: Duplex, kind: 'address' | 'token') {
  const whose = kind === 'address' ? 'from your address' : 'with this token'
  refuse(
    socket,
    429,
    'too_many_waiting',
    `${MAX_WAITING[kind]} machine connections ${whose} are waiting to register, the most allowed at once: ` +
      'let them register or close them, then connect again',
    `Retry-After: ${REGISTER_WITHIN_MS / 1000}\r\n`,
  )
}

/** The client's tokens were refused too often this minute (tokens/guess-limit.ts, decision 0431). */
function tooManyRefused(socket: Duplex, seconds: number) {
  refuse(
    socket,
    429,
    'rate_limited',
    `Too many refused tokens from your address; try again in ${seconds} s`,
    `Retry-After: ${seconds}\r\n`,
  )
}

/** A registration the client must not retry: it exits, saying why. */
const refusal = (code: (typeof REGISTER_REFUSALS)[number] | 'bad_request', message: string) =>
  new JSONRPCErrorException(message, -32001, { code })

/**
 * Handles upgrades to {@link CONNECT_PATH} on `server`; other upgrades (Vite's HMR) are left alone.
 * `addressOf` gives a request's client address as the HTTP routes see it (TRUST_PROXY applied).
 */
export function attachMachineEndpoint(
  server: Server,
  addressOf: (req: IncomingMessage) => string,
): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 })
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== CONNECT_PATH) return
    const address = addressOf(req)
    // A client that guessed too many tokens this minute is refused before its token is looked up.
    const limiting = authRateLimited()
    const waiting = limiting ? waitForTokens(address) : null
    if (waiting !== null) return tooManyRefused(socket, waiting)
    // The address's place is taken before the token costs a lookup; all are given back when the
    // socket registers or its connection ends, however it ends.
    const places = new WaitingPlaces()
    if (!places.take('address', address)) return tooManyWaiting(socket, 'address')
    socket.once('close', () => places.release())
    const token = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? ''
    const check = async () => {
      const verified = await verifyMachineToken(token)
      const wait = !verified && limiting ? await countRefusedToken(address) : null
      return { verified, wait }
    }
    check().then(
      ({ verified, wait }) => {
        if (!verified) {
          places.release()
          if (wait !== null) return tooManyRefused(socket, wait)
          return refuse(socket, 401, 'unauthorized', 'Unknown or revoked machine token')
        }
        if (!places.take('token', verified.tokenId)) {
          places.release()
          return tooManyWaiting(socket, 'token')
        }
        wss.handleUpgrade(req, socket, head, (ws) => serve(ws, verified, places))
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

/**
 * The machine a registration names: the token's (id from its name, label the name itself); a
 * token from before ids came from tokens takes the client's `--id`.
 */
function identify(token: VerifiedToken, input: RegisterInput): { id: string; label: string } {
  if (token.machineId) {
    if (input.id && input.id !== token.machineId) {
      throw refusal(
        'wrong_machine',
        `this token connects the machine "${token.machineId}" (${token.name}), not "${input.id}": ` +
          'leave --id out, or use the token made for that machine',
      )
    }
    return { id: token.machineId, label: token.name }
  }
  if (!input.id) {
    throw refusal(
      'wrong_machine',
      'this token is from before machine ids came from tokens: give --id, or make a new token in Settings → Machines',
    )
  }
  return { id: input.id, label: input.label ?? input.id }
}

const tokenRevoked = () =>
  refusal('token_revoked', 'this machine token was revoked: make a new one in Settings → Machines')

/** Why a live machine cannot be taken over without `--replace`. */
function alreadyConnected(id: string, label: string, since: Date | null | undefined) {
  return refusal(
    'machine_connected',
    `machine "${label}" (${id}) is already connected from another computer` +
      `${since ? ` since ${since.toISOString()}` : ''}; run the client with --replace to take its place`,
  )
}

function serve(ws: WebSocket, token: VerifiedToken, waiting: WaitingPlaces) {
  const { ownerId, tokenId } = token
  let conn: MachineConnection | undefined
  let retry: NodeJS.Timeout | undefined
  const unregistered = setTimeout(() => ws.close(4001, 'register first'), REGISTER_WITHIN_MS)
  // Until it registers, the socket answers only `register`; afterwards the connection's own RPC.
  const boot = new MachineConnection(ownerId, tokenId, '', 'unregistered machine', ws)
  const register = async (params: unknown): Promise<RegisterResult> => {
    const input = parseInput(RegisterInput, params)
    const { id, label } = identify(token, input)
    // A second computer never takes a live machine's place by accident (here or on another
    // instance): only `replace` may, the client's --replace or its own reconnect.
    const here = connections.get(ownerId, id)
    if (here && !here.closedBecause && !input.replace) throw alreadyConnected(id, label, undefined)
    // The token was live when the socket opened; a revoke since then found no connection of it to
    // end (decision 0432).
    if (!(await isTokenLive(tokenId))) throw tokenRevoked()
    const recorded = await markConnected(
      {
        ownerId,
        id,
        label,
        os: input.os,
        version: input.version,
        dir: input.dir,
        tokenId,
        instanceId: instanceId(),
        instanceUrl: instanceUrl(),
        connectionId: boot.connectionId,
      },
      { limit: env().USER_MAX_MACHINES, replace: input.replace },
    )
    if (!recorded.ok && 'live' in recorded) throw alreadyConnected(id, label, recorded.live.connectedAt)
    if (!recorded.ok) {
      throw refusal(
        'machine_limit',
        `you have ${recorded.full} machines, and an account may have at most ${env().USER_MAX_MACHINES} ` +
          'machines (USER_MAX_MACHINES): disconnect one in Settings → Machines first',
      )
    }
    const previous = recorded.previous
    const elsewhere =
      previous && isLive(previous) && previous.instanceId !== instanceId() ? previous : undefined
    clearTimeout(unregistered)
    waiting.release()
    conn = boot
    Object.assign(conn, { machineId: id, label })
    connections.add(conn) // ends a connection of the same machine this instance held
    if (elsewhere) await closeConnection(ownerId, id, elsewhere, 'replaced')
    const registered = conn
    // A revoke between the check above and `connections.add` looked for this connection before it
    // was there: look at the token again now that a revoke would find it.
    if (!(await isTokenLive(tokenId))) {
      registered.end('revoked')
      throw tokenRevoked()
    }
    logger.info({ ownerId, machine: id }, 'machine connected')
    setImmediate(() => void deliverStops(registered))
    retry = setInterval(() => {
      void touchMachine(ownerId, registered.machineId, registered.connectionId)
      void deliverStops(registered)
      // A revoke whose word did not reach this instance still ends the connection.
      void isTokenLive(tokenId).then((live) => live || registered.end('revoked'))
    }, STOP_RETRY_MS)
    return { ok: true, id, label, instance: instanceId() }
  }
  // One registration at a time per connection (a second one sent meanwhile gets the first's
  // answer), and per person on this instance (lib/in-turn.ts): each is a transaction waiting on
  // the person's advisory lock, and registrations sent together (5,000 from one socket, or one from
  // each of many) once held every connection of the pool while they waited (decision 0419).
  let registering: Promise<RegisterResult> | undefined
  const registerInTurn = (params: unknown) =>
    inTurn(ownerId, async () => {
      if (ws.readyState !== ws.OPEN) throw refusal('bad_request', 'the connection closed')
      try {
        return await register(params)
      } catch (err) {
        if (err instanceof HttpError) throw refusal('bad_request', err.message)
        throw err
      }
    })
  boot.rpc.addMethod('register', (params) => {
    if (conn) return { ok: true, id: conn.machineId, label: conn.label, instance: instanceId() }
    registering ??= registerInTurn(params).finally(() => (registering = undefined))
    return registering
  })
  const meter = createInboundMeter(INBOUND_RATES.connection)
  let paused: NodeJS.Timeout | undefined
  // A refused client is read again at once, so its answer to the close arrives and the socket ends
  // now, not after the pause its flood earned; what it sends meanwhile is dropped unread.
  const refuseUnread = (code: number, reason: string) => {
    clearTimeout(paused)
    ws.resume()
    ws.close(code, reason)
  }
  ws.on('message', (data) => {
    if (ws.readyState !== ws.OPEN) return
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
    // A batch is refused from its first byte, before the message is decoded and scanned: those
    // walk all of its up to 16 MiB, which a client sending them back to back turned into seconds
    // of the loop on a busy machine (decision 0419).
    if (isBatch(bytes)) return refuseUnread(1008, 'a JSON-RPC batch, which the protocol does not use')
    const text = bytes.toString('utf8')
    const shape = measureMessage(text)
    // Past its own rate or all clients' together, the socket is read no further for a while: the
    // client waits (TCP holds it back) instead of the loop parsing its flood. The messages of a
    // read already made still arrive, each asking for a longer wait: only the latest resumes, or
    // the first one's short wait would resume the socket under a flood of small messages.
    const wait = Math.max(
      meter.admit(bytes.length, shape.values),
      allMachinesMeter().admit(bytes.length, shape.values),
    )
    if (wait > 0) {
      ws.pause()
      clearTimeout(paused)
      paused = setTimeout(() => ws.resume(), wait).unref()
    }
    if (shape.past) return refuseUnread(1008, `a message refused unread: ${shape.past}`)
    let payload: unknown
    try {
      payload = JSON.parse(text)
    } catch {
      return refuseUnread(1003, 'not JSON')
    }
    // A key given twice or named __proto__ (which zod drops unsaid) is no client's message
    // (decisions 0475, 0478); long keys stay, as tools' outputs come back this way. A close reason
    // holds 123 bytes, so the first is named, cut (a character cut in two reads as one of three
    // bytes: 120 stays under).
    const [badKey] = jsonKeyProblems(text, { longKeys: false })
    if (badKey) {
      const reason = Buffer.from(`a key refused: ${badKey.message}`).subarray(0, 120).toString()
      return refuseUnread(1008, reason)
    }
    // The JSON-RPC layer rejects what is not a request, a response or a notification; unhandled,
    // that rejection ended the server's process (one `{"hello":1}` from anyone with a token).
    boot.rpc.receiveAndSend(payload).catch(() => ws.close(1008, 'not a JSON-RPC message'))
  })
  ws.on('close', () => {
    clearTimeout(unregistered)
    clearTimeout(paused)
    waiting.release()
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
