/**
 * The relay a `docker` environment's container runs in front of its command when it must reach a
 * Unix socket of this server: the filtering proxy when the policy names hosts (decision 0286), the
 * run's endpoint for a harness (launch-docker.ts, decision 0308). The container has no network
 * (`--network none`): only loopback and the sockets bind-mounted in. The relay listens on one port
 * of 127.0.0.1 inside the container per socket, pipes each connection to its socket, then runs the
 * command with the container's stdio and exits with its status. The proxy's port is
 * {@link RELAY_PORT}, where HTTP_PROXY and friends point (leaseProxy in exec/sandbox-runtime.ts),
 * and the proxy decides host by host as it does for local commands. It is plain JavaScript run by
 * the image's `node` (node:22-slim has it): the images have no socat, and mounting the host's would
 * bring its libraries.
 */
import { chmod, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Where the relay's folder and the proxy socket appear in the container. */
export const RELAY_DIR = '/run/clockwork-relay'
export const PROXY_SOCKET = '/run/clockwork-proxy/proxy.sock'
/** The relay's port on the container's loopback (sandbox-runtime's relays use the same one). */
export const RELAY_PORT = 3128

const SOURCE = `// Clockwork's relay: 127.0.0.1:PORT in the container -> a Unix socket, for each PORT=SOCKET
// before the --; then the command after it.
import net from 'node:net'
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
const args = process.argv.slice(2)
const split = args.indexOf('--')
const routes = args.slice(0, split).map((route) => {
  const at = route.indexOf('=')
  return { port: Number(route.slice(0, at)), socket: route.slice(at + 1) }
})
const command = args.slice(split + 1)
const listen = ({ port, socket }) =>
  new Promise((resolve) => {
    const server = net.createServer((client) => {
      const upstream = net.connect(socket)
      const end = () => { client.destroy(); upstream.destroy() }
      client.on('error', end)
      upstream.on('error', end)
      client.pipe(upstream).pipe(client)
    })
    server.on('error', (error) => {
      process.stderr.write('[the relay could not start on port ' + port + ': ' + error.message + ']\\n')
      process.exit(125)
    })
    server.listen(port, '127.0.0.1', resolve)
  })
await Promise.all(routes.map(listen))
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' })
child.on('error', (error) => {
  process.stderr.write(error.message + '\\n')
  process.exit(127)
})
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
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

/** A port of the container's loopback relayed to a Unix socket (its path inside the container). */
export type RelayRoute = { port: number; socket: string }

/** The proxy's route: its socket where dockerExecArgs mounts it, on {@link RELAY_PORT}. */
export const PROXY_ROUTE: RelayRoute = { port: RELAY_PORT, socket: PROXY_SOCKET }

/** The container's command: the relay listening on each route, then `argv` under it. */
export const relayed = (argv: string[], routes: RelayRoute[]) => [
  'node',
  `${RELAY_DIR}/relay.mjs`,
  ...routes.map((r) => `${r.port}=${r.socket}`),
  '--',
  ...argv,
]
