/**
 * The bridge: the only door from sandboxed code back into the app, owned by the parent for one
 * run. It listens on a per-run Unix socket (and a 127.0.0.1 port when asked), accepts a per-run
 * random bearer token compared in constant time, caps request bodies, and serves two routes:
 * `POST /app-action` (an injected allowlist of actions already bound to the caller) and
 * `POST /provider-fetch` (an outbound fetch done here, through the SSRF guard).
 * The sandbox domain never imports the agent: the caller's actions are passed in.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import type { GuardedFetchOptions } from '../lib/outbound.ts'
import { guardedFetch, OutboundRefused } from '../lib/outbound.ts'

/** One allowlisted action, already bound to the caller's identity and rights. */
export type BridgeAction = (input: unknown) => Promise<unknown>
export type BridgeActions = Readonly<Record<string, BridgeAction>>

export type BridgeOptions = {
  actions: BridgeActions
  /** Hosts providerFetch may reach (exact names or `*.example.com`); empty refuses every fetch. */
  fetchAllow?: string[]
  /** Overrides for the outbound guard (tests inject a DNS lookup). */
  fetchOptions?: Omit<GuardedFetchOptions, 'allowHosts'>
  /** Also listen on 127.0.0.1 (for adapters that cannot mount a Unix socket). */
  tcp?: boolean
  maxBodyBytes?: number
}

export type Bridge = {
  token: string
  socketPath: string
  /** 0 when not listening on TCP. */
  port: number
  close(): Promise<void>
}

const DEFAULT_MAX_BODY = 1024 * 1024

const AppActionBody = z.object({ name: z.string().min(1).max(100), input: z.unknown().optional() })
const FetchBody = z.object({
  url: z.string().min(1).max(8192),
  method: z.string().max(16).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
})

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const token = randomBytes(32).toString('base64url')
  // A per-run dir with a random name; sandboxes get the socket bind-mounted or reach it by path.
  const dir = await mkdtemp(path.join(tmpdir(), 'clockwork-bridge-'))
  const socketPath = path.join(dir, 'bridge.sock')
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, token, options).then(
      ({ status, body }) => send(res, status, body),
      () => send(res, 500, { error: { code: 'internal', message: 'Bridge failure' } }),
    )
  }
  const servers: Server[] = [createServer(handler)]
  await listen(servers[0]!, socketPath)
  // Sandboxes run as another uid (65534): they need to connect to the socket and, without bwrap,
  // to traverse its dir (0711: no listing, the random dir name stays unguessable). The token guards it.
  await chmod(socketPath, 0o666)
  await chmod(dir, 0o711)
  let port = 0
  if (options.tcp) {
    const tcp = createServer(handler)
    await listen(tcp, { host: '127.0.0.1', port: 0 })
    port = (tcp.address() as AddressInfo).port
    servers.push(tcp)
  }
  return {
    token,
    socketPath,
    port,
    async close() {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))))
      servers.forEach((s) => s.closeAllConnections())
      await rm(dir, { recursive: true, force: true })
    },
  }
}

type Reply = { status: number; body: unknown }
const fail = (status: number, code: string, message: string): Reply => ({
  status,
  body: { error: { code, message } },
})

async function handle(req: IncomingMessage, token: string, options: BridgeOptions): Promise<Reply> {
  if (!sameToken(req.headers.authorization, token)) return fail(401, 'unauthorized', 'Bad bridge token')
  if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'POST only')
  const raw = await readBody(req, options.maxBodyBytes ?? DEFAULT_MAX_BODY)
  if (raw === null) return fail(413, 'payload_too_large', 'Request body too large')
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return fail(400, 'bad_request', 'Body must be JSON')
  }
  if (req.url === '/app-action') return appAction(json, options.actions)
  if (req.url === '/provider-fetch') return providerFetch(json, options)
  return fail(404, 'not_found', 'Unknown bridge route')
}

async function appAction(json: unknown, actions: BridgeActions): Promise<Reply> {
  const parsed = AppActionBody.safeParse(json)
  if (!parsed.success) return fail(400, 'bad_request', 'Expected { name, input }')
  const { name, input } = parsed.data
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined
  if (!action) return fail(403, 'forbidden', `Action "${name}" is not allowed here`)
  try {
    return { status: 200, body: { result: (await action(input ?? {})) ?? null } }
  } catch (err) {
    return errorReply(err)
  }
}

async function providerFetch(json: unknown, options: BridgeOptions): Promise<Reply> {
  const parsed = FetchBody.safeParse(json)
  if (!parsed.success) return fail(400, 'bad_request', 'Expected { url, method?, headers?, body? }')
  try {
    const res = await guardedFetch(parsed.data.url, {
      method: parsed.data.method,
      headers: parsed.data.headers,
      body: parsed.data.body,
      ...options.fetchOptions,
      allowHosts: options.fetchAllow ?? [],
    })
    return {
      status: 200,
      body: {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
        body: res.body.toString('base64'),
      },
    }
  } catch (err) {
    if (err instanceof OutboundRefused) return fail(403, 'fetch_refused', err.message)
    return fail(502, 'fetch_failed', (err as Error).message)
  }
}

/** Errors a caller causes (HttpError-shaped: status + code) keep their status; others stay generic. */
function errorReply(err: unknown): Reply {
  const e = err as { status?: unknown; code?: unknown; message?: unknown; field?: unknown }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && typeof e.code === 'string') {
    const field = typeof e.field === 'string' ? { field: e.field } : {}
    return { status: e.status, body: { error: { code: e.code, message: String(e.message), ...field } } }
  }
  return fail(500, 'internal', 'The action failed')
}

function sameToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '')
  const expected = Buffer.from(token)
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time flat on mismatch.
  return given.length === expected.length
    ? timingSafeEqual(given, expected)
    : !timingSafeEqual(expected, expected)
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) over = true
      else chunks.push(c)
    })
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, status: number, body: unknown) {
  const data = JSON.stringify(body)
  // connection: close, or the code's keep-alive socket holds its event loop open for 5 s after the call.
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(data),
    connection: 'close',
  })
  res.end(data)
}

function listen(server: Server, where: string | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(where, () => resolve())
  })
}
