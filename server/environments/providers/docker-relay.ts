/**
 * The relay a `docker` environment's container runs in front of its command when the policy names
 * hosts (decision 0286). The container has no network (`--network none`): only loopback, and the
 * filtering proxy's Unix socket bind-mounted in. The relay listens on 127.0.0.1:{@link RELAY_PORT}
 * inside the container, pipes each connection to that socket, then runs the command with the
 * container's stdio and exits with its status. The command's tools find it through HTTP_PROXY and
 * friends (leaseProxy in exec/sandbox-runtime.ts), and the proxy decides host by host as it does
 * for local commands. It is plain JavaScript run by the image's `node` (node:22-slim has it): the
 * images have no socat, and mounting the host's would bring its libraries.
 */
import { chmod, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Where the relay's folder and the proxy socket appear in the container. */
export const RELAY_DIR = '/run/clockwork-relay'
export const PROXY_SOCKET = '/run/clockwork-proxy/proxy.sock'
/** The relay's port on the container's loopback (sandbox-runtime's relays use the same one). */
export const RELAY_PORT = 3128

const SOURCE = `// Clockwork's proxy relay: 127.0.0.1:PORT in the container -> the filtering proxy's socket.
import net from 'node:net'
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
const [socket, port, ...command] = process.argv.slice(2)
const server = net.createServer((client) => {
  const upstream = net.connect(socket)
  const end = () => { client.destroy(); upstream.destroy() }
  client.on('error', end)
  upstream.on('error', end)
  client.pipe(upstream).pipe(client)
})
server.on('error', (error) => {
  process.stderr.write('[the proxy relay could not start: ' + error.message + ']\\n')
  process.exit(125)
})
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' })
  child.on('error', (error) => {
    process.stderr.write(error.message + '\\n')
    process.exit(127)
  })
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
})
`

let folder: Promise<string> | undefined

/** The host folder holding relay.mjs (written once per process, readable by the container's uid). */
export function relayFolder(): Promise<string> {
  folder ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'clockwork-relay-'))
    await chmod(dir, 0o755)
    await writeFile(path.join(dir, 'relay.mjs'), SOURCE, { mode: 0o644 })
    return dir
  })()
  return folder
}

/** The container's command: the relay, then `argv` under it. */
export const relayed = (argv: string[]) => [
  'node',
  `${RELAY_DIR}/relay.mjs`,
  PROXY_SOCKET,
  String(RELAY_PORT),
  ...argv,
]
