/**
 * A command's own door to the filtering proxy (decision 0519). sandbox-runtime 0.0.78 judges every
 * connection against one allowlist for the whole process, and the only thing that tells one command
 * from another is the proxy user a request names, which the command chooses. So each command gets
 * a gate: a Unix socket of its own, bound into its sandbox (or container) and no other, speaking
 * what the runtime's relays and proxy variables speak (HTTP CONNECT, plain HTTP with an absolute
 * URL, SOCKS5). It refuses every host not on that command's list and passes the rest on to the
 * runtime's proxy under the command's id, where they are judged again (the union of the running
 * commands' lists, then the address each name resolves to). Which command asks is the socket it
 * came in on, never anything its request says.
 */
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { rmSync } from 'node:fs'
import { chmod, chown, mkdtemp } from 'node:fs/promises'
import http, {
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import net, { isIP, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { sandboxIdentity } from './identity.ts'
import { socksRequest, socksReply, SOCKS5 } from './socks5.ts'

export type GateOptions = {
  /** The command's own hosts (`name`, `*.name`, either with `:port`), already rid of inside names. */
  hosts: string[]
  /** The runtime's proxy: its socket and the Proxy-Authorization that names this command. */
  upstream: Upstream
  /** Called with `host:port` for each connection the gate refuses. */
  onRefused: (target: string) => void
}

type Upstream = { socket: string; authorization: string }

export type Gate = {
  /** The gate's Unix socket on this host, for the command's sandbox or container to bind in. */
  path: string
  /** Stops listening and cuts every connection still open through the gate. */
  close: () => void
}

/** The runtime's own refusal (request-filter.js), so tools and people read one answer. */
const REFUSED_HEAD =
  'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Proxy-Error: blocked-by-allowlist\r\n'
const REFUSED_BODY = 'Connection blocked by network allowlist\n'

/**
 * Connections a command may hold open through its gate at once: far above what a package manager
 * or a harness opens (npm keeps 15), and a bound on the server's descriptors (two a connection, the
 * command's and its tunnel's) however many processes the command starts. Past it, a new
 * connection is closed unread.
 */
export const MAX_GATE_CONNECTIONS = 256

/** The gates' folder, made once per process. */
let folder: Promise<string> | undefined

/**
 * Opens a gate for one command. Its socket is the sandbox user's to connect to (a command's bwrap
 * or container binds it in), in a folder that user can pass through but not list, under a name
 * nobody is told but the command's own sandbox.
 */
export async function openGate(opts: GateOptions): Promise<Gate> {
  const path = join(await gatesFolder(), `${randomBytes(12).toString('hex')}.sock`)
  const open = new Set<Socket>()
  const web = http.createServer((req, res) => forwardRequest(opts, req, res))
  web.on(
    'connect',
    (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(opts, req, client, head),
  )
  web.on('clientError', (_err, socket: Duplex) => socket.destroy())
  const server = net.createServer((client) => {
    open.add(client)
    client.once('close', () => open.delete(client))
    client.on('error', () => client.destroy())
    // One byte tells the protocols apart, as the runtime's own front does: 5 is SOCKS5's version,
    // no HTTP method starts with it.
    client.once('readable', () => {
      const first = client.read(1) as Buffer | null
      if (!first) return void client.destroy()
      client.unshift(first)
      if (first[0] === SOCKS5) void socks(opts, client)
      else web.emit('connection', client)
    })
  })
  server.maxConnections = MAX_GATE_CONNECTIONS
  server.listen(path)
  await once(server, 'listening')
  const close = () => {
    server.close()
    for (const socket of open) socket.destroy()
  }
  try {
    const id = sandboxIdentity()
    if (id.drop) await chown(path, id.uid, id.gid)
  } catch (err) {
    close()
    throw err
  }
  return { path, close }
}

function gatesFolder(): Promise<string> {
  folder ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockwork-gates-'))
    // The folder lives as long as the process; each gate's socket goes with its gate, so what is
    // left at exit is the folder itself (and a socket whose command was cut off by the exit).
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    await chmod(dir, 0o711)
    return dir
  })()
  return folder
}

/**
 * Whether `hosts` names `host` on `port`: the name exactly, or under a `*.` entry, and on the
 * entry's port if it has one. Only plain DNS spellings are judged at all (no address forms to
 * canonicalise, no IPv6, nothing the runtime would read differently); a wildcard never covers an
 * address literal.
 */
export function allowsHost(hosts: string[], host: string, port: number): boolean {
  const asked = host.toLowerCase()
  if (!/^[a-z0-9.-]+$/.test(asked)) return false
  return hosts.some((entry) => {
    const at = entry.lastIndexOf(':')
    const name = (at === -1 ? entry : entry.slice(0, at)).toLowerCase()
    if (at !== -1 && Number(entry.slice(at + 1)) !== port) return false
    if (name.startsWith('*.')) return !isIP(asked) && asked.endsWith(name.slice(1))
    return asked === name
  })
}

/** Judges `host:port` for the command; records and answers nothing itself. */
function judge(opts: GateOptions, host: string, port: number): boolean {
  if (allowsHost(opts.hosts, host, port)) return true
  opts.onRefused(`${host.slice(0, 255)}:${port}`)
  return false
}

/** `CONNECT host:port`: through the runtime's proxy as one tunnel, or refused. */
async function tunnel(opts: GateOptions, req: IncomingMessage, client: Duplex, head: Buffer) {
  client.on('error', () => client.destroy())
  // `name:port` only: an IPv6 literal (`[::1]:443`) is no name an entry can hold.
  const target = /^([^:[\]]+):(\d{1,5})$/.exec(req.url ?? '')
  if (!target || !judge(opts, target[1]!, Number(target[2]))) {
    if (!target) opts.onRefused((req.url ?? '').slice(0, 255))
    return void client.end(`${REFUSED_HEAD}\r\n${REFUSED_BODY}`)
  }
  const opened = await openTunnel(opts.upstream, target[1]!.toLowerCase(), Number(target[2]))
  if (client.destroyed) return void ('socket' in opened && opened.socket.destroy())
  if (!('socket' in opened)) {
    const { status, body } = opened
    return void client.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
  splice(client, opened.socket, head, opened.head)
}

/** SOCKS5 CONNECT: the same tunnel, answered in SOCKS. */
async function socks(opts: GateOptions, client: Socket) {
  const asked = await socksRequest(client).catch(() => null)
  if (!asked) return void client.destroy()
  if (!judge(opts, asked.host, asked.port)) return void client.end(socksReply('refused'))
  const opened = await openTunnel(opts.upstream, asked.host.toLowerCase(), asked.port)
  if (client.destroyed) return void ('socket' in opened && opened.socket.destroy())
  if (!('socket' in opened))
    return void client.end(socksReply(opened.status === 403 ? 'refused' : 'unreachable'))
  client.write(socksReply('granted'))
  splice(client, opened.socket, Buffer.alloc(0), opened.head)
}

type Opened = { socket: Socket; head: Buffer } | { status: number; body: string }

/** A CONNECT to the runtime's proxy in the command's name: the tunnel, or the proxy's answer. */
function openTunnel(upstream: Upstream, host: string, port: number): Promise<Opened> {
  return new Promise((resolve) => {
    const authority = `${host}:${port}`
    const req = http.request({
      socketPath: upstream.socket,
      method: 'CONNECT',
      path: authority,
      agent: false,
      headers: { host: authority, 'proxy-authorization': upstream.authorization },
    })
    req.on('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
      if (res.statusCode === 200) return resolve({ socket, head })
      socket.destroy()
      // What follows a refusal's head is its short reason (the runtime writes it and closes).
      resolve({ status: res.statusCode ?? 502, body: head.toString('utf8', 0, 1024) })
    })
    req.on('error', () => resolve({ status: 502, body: '' }))
    req.end()
  })
}

/** A plain HTTP request with an absolute URL: passed on to the runtime's proxy, or refused. */
function forwardRequest(opts: GateOptions, req: IncomingMessage, res: ServerResponse) {
  let url: URL
  try {
    url = new URL(req.url ?? '')
  } catch {
    return void res.writeHead(400, { connection: 'close' }).end()
  }
  const port = Number(url.port || 80)
  if (url.protocol !== 'http:' || !judge(opts, url.hostname, port)) {
    return void res.writeHead(403, REFUSED_HEADERS).end(REFUSED_BODY)
  }
  const upstream = http.request({
    socketPath: opts.upstream.socket,
    method: req.method,
    // The URL as parsed here, so the runtime reads the host that was judged.
    path: url.href,
    agent: false,
    headers: { ...endToEnd(req.headers), host: url.host, 'proxy-authorization': opts.upstream.authorization },
  })
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers))
    answer.pipe(res)
  })
  upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()))
  res.on('close', () => upstream.destroy())
  req.pipe(upstream)
}

const REFUSED_HEADERS = { 'content-type': 'text/plain', 'x-proxy-error': 'blocked-by-allowlist' }

/** Headers meant for the far end: the hop-by-hop ones (RFC 9110 §7.6.1) and proxy credentials dropped. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
  const hop = new Set([
    ...named,
    'connection',
    'keep-alive',
    'proxy-authorization',
    'proxy-authenticate',
    'proxy-connection',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
  ])
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hop.has(name)))
}

/** Joins the command's connection to its tunnel, with what each side already sent. */
function splice(client: Duplex, upstream: Socket, fromClient: Buffer, fromUpstream: Buffer) {
  const cut = () => {
    client.destroy()
    upstream.destroy()
  }
  client.on('error', cut)
  upstream.on('error', cut)
  client.once('close', () => upstream.destroy())
  upstream.once('close', () => client.end())
  if (fromUpstream.length > 0) client.write(fromUpstream)
  if (fromClient.length > 0) upstream.write(fromClient)
  client.pipe(upstream)
  upstream.pipe(client)
}
