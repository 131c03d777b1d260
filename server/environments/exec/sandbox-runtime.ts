/**
 * The one place that talks to @anthropic-ai/sandbox-runtime (0.0.78, pinned: the last release whose
 * engines allow Node 20). It is initialised once per process. Its filtering proxy reads one global
 * host allowlist, not one per command, so the allowlist in force is the intersection of the lists
 * of the commands running right now: exact for one command, fail-closed when two environments with
 * different hosts overlap (a host one of them lacks is refused to both until it finishes).
 *
 * The proxy trusts an address literal on its allowlist and never judges it again, so no entry
 * that leads inside (a private, loopback, link-local or reserved literal in any spelling, this
 * host's own addresses, `localhost`) ever reaches it, whatever a stored definition says; a host
 * name is judged after resolution (PRIVATE_RANGES below, plus the runtime's own loopback,
 * link-local, metadata and own-address checks).
 *
 * A refused connection does not always fail the command (curl prints the proxy's 403 page and
 * exits 0), so the refusals the runtime records for a command (its violation store, keyed by the
 * command id we pass) are collected while it runs and reported with its result.
 */
import { chown } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { namesInside } from '../../lib/outbound.ts'
import { sandboxIdentity } from './identity.ts'
import { VIEW_TMP, type ViewPlan } from './sandbox-view.ts'

/**
 * Private ranges an allowed host name must not resolve to; loopback, link-local, this host's own
 * addresses and the clouds' metadata addresses are refused by the runtime itself.
 */
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7']

const BASE: SandboxRuntimeConfig = {
  network: {
    allowedDomains: [],
    deniedDomains: [],
    strictAllowlist: true,
    deniedResolvedAddresses: PRIVATE_RANGES,
  },
  filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
}

/**
 * The runtime starts its in-sandbox relays to the proxy (socat on 127.0.0.1:3128 for HTTP, :1080
 * for SOCKS) in the background and runs the command straight after, so a command's first
 * connection could find nothing listening ("Failed to connect to localhost port 3128") and look
 * like an outage. The command waits for both first: a few milliseconds at most, and bounded.
 */
const AWAIT_RELAYS = [3128, 1080]
  .map(
    (port) =>
      `for i in $(seq 250); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.02; done`,
  )
  .join('\n')

/**
 * The TMPDIR the runtime hands every command: a fixed folder of the sandbox's own private /tmp
 * (the runtime's choice, not a path of this host, so not the OS temp dir).
 */
const RUNTIME_TMPDIR = `${VIEW_TMP}/claude`

let ready: Promise<void> | undefined
const running = new Map<string, string[]>()
/** The connections refused to each running command ("host:port"), by command id. */
const refused = new Map<string, string[]>()
/** Refusals kept per command: enough to say what was refused, bounded against a loop of retries. */
const MAX_REFUSALS = 20

/** Starts the runtime (proxies) once; later calls share the first attempt. @throws why it cannot. */
export function initSandboxRuntime(): Promise<void> {
  ready ??= (async () => {
    if (!SandboxManager.isSupportedPlatform())
      throw new Error('sandbox-runtime does not support this platform')
    const deps = SandboxManager.checkDependencies()
    if (deps.errors.length > 0) throw new Error(`sandbox-runtime is missing ${deps.errors.join(', ')}`)
    await SandboxManager.initialize(structuredClone(BASE))
    collectRefusals()
    await shareSockets()
  })()
  return ready
}

export type WrapRequest = {
  id: string
  command: string
  root: string
  allowedHosts: string[]
}

export type Wrapped = {
  /** The shell line (sandbox-runtime's own bwrap, proxy relays and seccomp around `command`). */
  line: string
  /** Frees the command's slot in the host allowlist (and forgets its refusals). */
  release: () => void
  /** The connections the proxy refused to this command so far ("host:port"); read before release. */
  refusals: () => string[]
  /**
   * What the line needs from the view it runs in (sandbox-view.ts): the proxy socket and the
   * runtime's helper binaries, and the folders it mounts its own masks on.
   */
  view: Pick<ViewPlan, 'readOnly' | 'dirs'>
}

/**
 * The shell line that runs `command` confined to `root`. It runs inside the view of
 * sandbox-view.ts, so its own `--ro-bind / /` binds only what that view holds: the runtime brings
 * the network (its proxy, the host allowlist, seccomp), the view decides what exists.
 */
export async function wrapCommand(req: WrapRequest): Promise<Wrapped> {
  await initSandboxRuntime()
  const { allowedHosts, release } = register(req.id, req.allowedHosts)
  try {
    const line = await SandboxManager.wrapWithSandbox(
      `${AWAIT_RELAYS}\n${req.command}`,
      '/bin/bash',
      {
        // The home folder is denied so the runtime leaves out its convenience write paths there
        // (~/.npm/_logs); /tmp is the view's private one.
        filesystem: {
          denyRead: home(),
          allowRead: [req.root],
          allowWrite: [req.root, VIEW_TMP],
          denyWrite: [],
        },
        network: { ...BASE.network, allowedDomains: allowedHosts },
      },
      undefined,
      // An opaque id: by default the proxy user name would carry the command text itself.
      { commandId: req.id, commandText: req.id },
    )
    const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()]
    const view = {
      readOnly: [...new Set(sockets.filter((s): s is string => Boolean(s))), vendorDir()],
      dirs: [...home(), RUNTIME_TMPDIR],
    }
    return { line, release, view, refusals: () => [...(refused.get(req.id) ?? [])] }
  } catch (err) {
    release()
    throw err
  }
}

/** Puts a command's hosts in the allowlist in force (and starts collecting its refusals). */
function register(id: string, hosts: string[]) {
  const allowedHosts = proxyHosts(hosts)
  running.set(id, allowedHosts)
  refused.set(id, [])
  applyAllowlist()
  const release = () => {
    refused.delete(id)
    if (running.delete(id)) applyAllowlist()
  }
  return { allowedHosts, release }
}

/** The filtering proxy for a command that brings its own isolation (a `docker` environment's container). */
export type ProxyLease = {
  /** The proxy's Unix socket on this host (the container reaches it bind-mounted, through a relay). */
  socket: string
  /**
   * The variables that point the command's tools at a relay of that socket listening on
   * 127.0.0.1:`port` inside its network namespace, with the proxy's credential and the command's
   * id as its user name (so the runtime files its refusals under the command, as for `wrapCommand`).
   */
  env: Record<string, string>
  release: () => void
  refusals: () => string[]
}

/**
 * Leases the proxy to command `id` with `allowedHosts` (those that lead inside dropped), or null when
 * none is left: a command without hosts gets no network at all. @throws when the runtime cannot start.
 */
export async function leaseProxy(req: {
  id: string
  allowedHosts: string[]
  port: number
}): Promise<ProxyLease | null> {
  if (proxyHosts(req.allowedHosts).length === 0) return null
  await initSandboxRuntime()
  await SandboxManager.waitForNetworkInitialization()
  const socket = SandboxManager.getLinuxHttpSocketPath()
  if (!socket) throw new Error('sandbox-runtime has no proxy socket')
  const { release } = register(req.id, req.allowedHosts)
  // The runtime's own convention (0.0.78, pinned): user `srt.<base64 of the command id>`, password
  // its per-process token; see generateProxyEnvVars in its sandbox-utils.
  const token = SandboxManager.getProxyAuthToken()
  const user = `srt.${encodeURIComponent(Buffer.from(req.id).toString('base64'))}`
  const url = `http://${token ? `${user}:${token}@` : ''}127.0.0.1:${req.port}`
  const local = 'localhost,127.0.0.1,::1'
  const env: Record<string, string> = { NO_PROXY: local, no_proxy: local, GRPC_PROXY: url }
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = url
    env[name.toLowerCase()] = url
  }
  return { socket, env, release, refusals: () => [...(refused.get(req.id) ?? [])] }
}

/** The entries the proxy may be given: none that leads inside (see the top of this file). */
export const proxyHosts = (hosts: string[]) => hosts.filter((host) => !namesInside(host))

/**
 * The server's home, denied (an empty folder inside) so the runtime binds none of its convenience
 * write folders there (~/.npm/_logs); above the environment it re-binds the environment's folder
 * over that. Not `/`, which would deny the whole view.
 */
function home(): string[] {
  const dir = homedir()
  return dir === '/' ? [] : [dir]
}

/** The runtime's helper binaries (seccomp filter, JVM proxy agent), run from inside the sandbox. */
function vendorDir(): string {
  const entry = createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime')
  return join(dirname(entry), '..', 'vendor')
}

function applyAllowlist() {
  const lists = [...running.values()]
  const allowed =
    lists.length === 0 ? [] : lists.reduce((acc, list) => acc.filter((host) => list.includes(host)))
  SandboxManager.updateConfig({
    ...structuredClone(BASE),
    network: { ...BASE.network, allowedDomains: allowed },
  })
}

/**
 * Listens to the runtime's violation store: the proxies record each refused connection there
 * (`deny network-outbound host:port (reason)`, `deny http-request METHOD url (reason)`) with the
 * command text we registered, which is the command's id. The store keeps only its latest 100
 * entries, so refusals are taken as they arrive rather than looked up afterwards.
 */
function collectRefusals() {
  let first = true
  SandboxManager.getSandboxViolationStore().subscribe((violations) => {
    // subscribe() calls back at once with what is stored already: nothing of ours.
    if (first) return void (first = false)
    const latest = violations.at(-1)
    const list = latest?.command ? refused.get(latest.command) : undefined
    const target = latest && refusedTarget(latest.line)
    if (list && target && !list.includes(target) && list.length < MAX_REFUSALS) list.push(target)
  })
}

/** `example.com:80` from a proxy's violation line; null for anything that is not a network refusal. */
export function refusedTarget(line: string): string | null {
  const outbound = /^deny network-outbound (\S+)/.exec(line)
  if (outbound) return outbound[1]!
  const request = /^deny http-request \S+ (\S+)/.exec(line)
  if (!request) return null
  try {
    return new URL(request[1]!).host
  } catch {
    return request[1]!
  }
}

/** The proxy's Unix sockets are created by the server (root); the sandbox uid must reach them. */
async function shareSockets() {
  const id = sandboxIdentity()
  if (!id.drop) return
  await SandboxManager.waitForNetworkInitialization()
  const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()]
  for (const socket of new Set(sockets)) if (socket) await chown(socket, id.uid, id.gid)
}
