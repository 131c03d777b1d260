/**
 * The machine client: `node client.mjs --server URL --token TOKEN --dir DIR [--replace]
 * [--deny PATTERN]...`. Connects to the app, registers as the machine its token names, and serves
 * its calls in DIR until stopped, reconnecting with backoff. It exits when the server refuses it
 * (the machine is connected from another computer and --replace was not given, the account is at
 * its cap) or ends it for good (replaced, token revoked, disconnected in Settings → Machines).
 * `--id` and `--label` are for tokens made before ids came from tokens. File calls stay inside DIR;
 * commands run as this user with this user's rights (docs/decisions/0224). Bundled into one file
 * by build-client.ts (ws and json-rpc-2.0 inlined).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { JSONRPCClient, JSONRPCErrorException, JSONRPCServer, JSONRPCServerAndClient } from 'json-rpc-2.0'
import WebSocket from 'ws'
import {
  clientBuildOf,
  CLOSE_CODES,
  PROTOCOL_VERSION,
  REGISTER_REFUSALS,
  type MachineCalls,
  type RegisterParams,
  type RegisterResult,
} from '../protocol.ts'
import { Commands } from './commands.ts'
import { fileCalls } from './files.ts'

/** This file's build (protocol.ts), or none when it was not run from a file. */
function ownBuild(): string {
  try {
    return `+${clientBuildOf(readFileSync(fileURLToPath(import.meta.url)))}`
  } catch {
    return ''
  }
}

const CLIENT_VERSION = `1.${PROTOCOL_VERSION}.0${ownBuild()}`
const log = (line: string) => console.log(`[clockwork-machine ${new Date().toISOString()}] ${line}`)

function options() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      dir: { type: 'string' },
      id: { type: 'string' },
      label: { type: 'string' },
      replace: { type: 'boolean' },
      deny: { type: 'string', multiple: true },
    },
  })
  const missing = (['server', 'token', 'dir'] as const).filter((k) => !values[k])
  if (missing.length) {
    console.error(`Missing ${missing.map((k) => `--${k}`).join(', ')}.
Usage: node client.mjs --server URL --token TOKEN --dir DIR [--replace] [--deny PATTERN]`)
    process.exit(2)
  }
  let dir: string
  try {
    dir = realpathSync(values.dir!)
    if (!statSync(dir).isDirectory()) throw new Error('not a directory')
  } catch (err) {
    console.error(`--dir ${values.dir}: ${(err as Error).message}`)
    process.exit(2)
  }
  return {
    server: values.server!,
    token: values.token!,
    dir,
    id: values.id,
    label: values.label,
    replace: values.replace ?? false,
    deny: values.deny ?? [],
  }
}

/** How the server ended a connection for good: what to say before exiting. */
const ENDINGS: Record<number, string> = {
  [CLOSE_CODES.replaced]: 'another client connected as this machine and replaced this one; exiting',
  [CLOSE_CODES.revoked]: 'the server ended the connection: its token was revoked; exiting',
  [CLOSE_CODES.disconnected]: 'disconnected from Settings → Machines by its owner; exiting',
}

const opts = options()
const commands = new Commands(opts.dir, opts.deny, log)
const files = fileCalls(opts.dir)
const url = new URL('/_agent-native/machines/connect', opts.server)
url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
let backoffMs = 500
let closing = false
let socket: WebSocket | undefined
// After its first registration a client reconnecting takes its own place back.
let registeredOnce = false

log(
  `file calls stay inside ${opts.dir}; commands execute as ${os.userInfo().username} with that account's ` +
    'rights and can reach anything it can (other folders, the network)',
)

/** The message of the server's JSON error, after a colon; nothing when the body is not one. */
function reasonIn(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message
    return typeof message === 'string' ? `: ${message.slice(0, 500)}` : ''
  } catch {
    return ''
  }
}

function connect() {
  log(`connecting to ${url.origin} (directory ${opts.dir})`)
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${opts.token}` } })
  socket = ws
  const rpc = new JSONRPCServerAndClient(
    new JSONRPCServer(),
    new JSONRPCClient((payload) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(payload))
    }),
  )
  const method = <M extends keyof MachineCalls>(
    name: M,
    fn: (params: MachineCalls[M]['params']) => MachineCalls[M]['result'] | Promise<MachineCalls[M]['result']>,
  ) => rpc.addMethod(name, (params) => fn(params as MachineCalls[M]['params']))

  method('run_command', (p) => commands.run(p, (out) => rpc.notify('output', out)))
  method('read_file', files.read_file)
  method('write_file', files.write_file)
  method('edit_file', files.edit_file)
  method('list_directory', files.list_directory)
  method('search_files', files.search_files)
  method('stop', (p) => commands.stop(p.runId))

  ws.on('unexpected-response', (_req, res) => {
    if (res.statusCode === 401) {
      log(
        'the server refused the token (401): it is unknown or revoked. Make a new one in Settings → Machines.',
      )
      process.exit(1)
    }
    // The server says why in a JSON error and, when it is busy or limiting this address, how long
    // to wait: the next try waits at least that long (at most five minutes, whatever it says).
    const wait = Number(res.headers['retry-after'])
    if (wait > 0) backoffMs = Math.max(backoffMs, Math.min(wait, 300) * 1000)
    let body = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      if (body.length < 4096) body += chunk
    })
    res.on('end', () => {
      log(`the server answered ${res.statusCode}${reasonIn(body)}`)
      ws.terminate()
    })
    res.on('error', () => ws.terminate())
  })
  ws.on('open', async () => {
    ws.on('message', (data) => void rpc.receiveAndSend(JSON.parse(String(data))))
    const params: RegisterParams = {
      ...(opts.id ? { id: opts.id } : {}),
      ...(opts.label ? { label: opts.label } : {}),
      replace: opts.replace || registeredOnce,
      os: `${os.platform()} ${os.release()} (${os.arch()})`,
      version: CLIENT_VERSION,
      dir: opts.dir,
      activeRuns: commands.activeRuns(),
    }
    try {
      const machine = (await rpc.timeout(10_000).request('register', params)) as RegisterResult
      backoffMs = 500
      registeredOnce = true
      log(`connected: "${machine.label}" (${machine.id}) is online`)
    } catch (err) {
      const code = err instanceof JSONRPCErrorException ? (err.data as { code?: string })?.code : undefined
      if (code === 'bad_request' || REGISTER_REFUSALS.some((refusal) => refusal === code)) {
        log(`the server refused this machine: ${(err as Error).message}`)
        closing = true
        ws.close()
        process.exit(4)
      }
      log(`registration failed: ${(err as Error).message}`)
      ws.close()
    }
  })
  ws.on('error', (err) => log(`connection error: ${err.message}`))
  ws.on('close', (code) => {
    rpc.rejectAllPendingRequests('connection closed')
    if (closing) return
    const ending = ENDINGS[code]
    if (ending) {
      log(ending)
      process.exit(code === CLOSE_CODES.disconnected ? 0 : 3)
    }
    log(`disconnected; reconnecting in ${(backoffMs / 1000).toFixed(1)} s`)
    setTimeout(connect, backoffMs)
    backoffMs = Math.min(backoffMs * 2, 30_000)
  })
}

connect()
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    closing = true
    log('stopping')
    for (const runId of commands.activeRuns()) commands.stop(runId)
    socket?.close()
    setTimeout(() => process.exit(0), 200).unref()
  })
}
