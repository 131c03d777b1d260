/**
 * The one place that talks to @anthropic-ai/sandbox-runtime (0.0.78, pinned: the last release whose
 * engines allow Node 20). It is initialised once per process. Its filtering proxy reads one global
 * host allowlist, not one per command, and tells commands apart only by the proxy user a request
 * names, which the command chooses. So no command reaches that proxy itself: each gets a gate of its
 * own (proxy-gate.ts), a socket bound into its sandbox alone, which refuses every host not on that
 * command's list and passes the rest on in its name; the runtime's allowlist is the union of the
 * running commands' lists, a second check behind the gates (decision 0519, replacing 0067's
 * intersection, which let one tenant's long command cut every other tenant's hosts).
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
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { SandboxManager, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { namesInside } from '../../lib/outbound.ts'
import { openGate } from './proxy-gate.ts'
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

type Manager = typeof SandboxManager
/**
 * The runtime, imported by the first initialisation rather than with this module: the package and
 * its dependencies are about 90 files that every server process (each test app's among them) loaded
 * at start, though only a command or a harness behind its proxy uses them.
 */
let manager: Manager | undefined
let ready: Promise<void> | undefined
const running = new Map<string, string[]>()
/** The connections refused to each running command ("host:port"), by command id. */
const refused = new Map<string, string[]>()
/** Refusals kept per command: enough to say what was refused, bounded against a loop of retries. */
const MAX_REFUSALS = 20

/** Starts the runtime (proxies) once; later calls share the first attempt. @throws why it cannot. */
export function initSandboxRuntime(): Promise<void> {
  ready ??= (async () => {
    const runtime = (await import('@anthropic-ai/sandbox-runtime')).SandboxManager
    manager = runtime
    if (!runtime.isSupportedPlatform()) throw new Error('sandbox-runtime does not support this platform')
    const deps = runtime.checkDependencies()
    if (deps.errors.length > 0) throw new Error(`sandbox-runtime is missing ${deps.errors.join(', ')}`)
    await runtime.initialize(structuredClone(BASE))
    collectRefusals()
  })()
  return ready
}

/** The runtime once initSandboxRuntime has loaded it; every caller has awaited that first. */
function sandboxManager(): Manager {
  if (!manager) throw new Error('sandbox-runtime used before initSandboxRuntime')
  return manager
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
   * What the line needs from the view it runs in (sandbox-view.ts): the command's gate where the
   * line looks for the proxy, the runtime's helper binaries, and the folders it mounts its masks on.
   */
  view: Pick<ViewPlan, 'readOnly' | 'sockets' | 'dirs'>
}

/**
 * The shell line that runs `command` confined to `root`. It runs inside the view of
 * sandbox-view.ts, so its own `--ro-bind / /` binds only what that view holds: the runtime brings
 * the network (its proxy, the host allowlist, seccomp), the view decides what exists.
 */
export async function wrapCommand(req: WrapRequest): Promise<Wrapped> {
  await initSandboxRuntime()
  const { allowedHosts, gate, release } = await register(req.id, req.allowedHosts)
  try {
    const line = await sandboxManager().wrapWithSandbox(
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
    const view = {
      readOnly: [vendorDir()],
      sockets: runtimeSockets().map((target) => ({ source: gate, target })),
      dirs: [...home(), RUNTIME_TMPDIR],
    }
    return { line, release, view, refusals: () => [...(refused.get(req.id) ?? [])] }
  } catch (err) {
    release()
    throw err
  }
}

/**
 * Opens command `id`'s gate, allowed `hosts` (those that lead inside dropped), and adds them to the
 * runtime's allowlist; starts collecting its refusals. @returns the gate's socket and its release.
 */
async function register(id: string, hosts: string[]) {
  const allowedHosts = proxyHosts(hosts)
  const socket = sandboxManager().getLinuxHttpSocketPath()
  if (!socket) throw new Error('sandbox-runtime has no proxy socket')
  refused.set(id, [])
  running.set(id, allowedHosts)
  applyAllowlist()
  const release = () => {
    refused.delete(id)
    if (running.delete(id)) applyAllowlist()
  }
  try {
    const gate = await openGate({
      hosts: allowedHosts,
      upstream: { socket, authorization: proxyAuthorization(id) },
      onRefused: (target) => noteRefusal(id, target),
    })
    return {
      allowedHosts,
      gate: gate.path,
      release: () => {
        gate.close()
        release()
      },
    }
  } catch (err) {
    release()
    throw err
  }
}

/**
 * The runtime's own credential with command `id` as its user (0.0.78's convention, `srt.<base64 of
 * the id>`; see generateProxyEnvVars in its sandbox-utils), which files its refusals under the
 * command. Only the gates hold it in a request: what a command puts in its own is dropped.
 */
function proxyAuthorization(id: string): string {
  const user = `srt.${Buffer.from(id).toString('base64')}`
  return `Basic ${Buffer.from(`${user}:${sandboxManager().getProxyAuthToken() ?? ''}`).toString('base64')}`
}

/** The runtime's proxy sockets (one file when its front serves HTTP and SOCKS alike, as 0.0.78's does). */
function runtimeSockets(): string[] {
  const sockets = [sandboxManager().getLinuxHttpSocketPath(), sandboxManager().getLinuxSocksSocketPath()]
  return [...new Set(sockets.filter((s): s is string => Boolean(s)))]
}

/** The filtering proxy for a command that brings its own isolation (a `docker` environment's container). */
export type ProxyLease = {
  /** The command's gate on this host (the container reaches it bind-mounted, through a relay). */
  socket: string
  /**
   * The variables that point the command's tools at a relay of that socket listening on
   * 127.0.0.1:`port` inside its network namespace. No credential: the gate is the command's own.
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
  await sandboxManager().waitForNetworkInitialization()
  const { gate, release } = await register(req.id, req.allowedHosts)
  const url = `http://127.0.0.1:${req.port}`
  const local = 'localhost,127.0.0.1,::1'
  const env: Record<string, string> = { NO_PROXY: local, no_proxy: local, GRPC_PROXY: url }
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = url
    env[name.toLowerCase()] = url
  }
  return { socket: gate, env, release, refusals: () => [...(refused.get(req.id) ?? [])] }
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

/** The runtime's allowlist: every running command's hosts, each command held to its own by its gate. */
function applyAllowlist() {
  const allowed = [...new Set([...running.values()].flat())]
  sandboxManager().updateConfig({
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
  sandboxManager()
    .getSandboxViolationStore()
    .subscribe((violations) => {
      // subscribe() calls back at once with what is stored already: nothing of ours.
      if (first) return void (first = false)
      const latest = violations.at(-1)
      const target = latest && refusedTarget(latest.line)
      if (latest?.command && target) noteRefusal(latest.command, target)
    })
}

/** Adds `target` ("host:port") to the refusals of running command `id`, once, up to the bound. */
function noteRefusal(id: string, target: string) {
  const list = refused.get(id)
  if (list && !list.includes(target) && list.length < MAX_REFUSALS) list.push(target)
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
