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
 */
import { chown } from 'node:fs/promises'
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { namesInside } from '../../lib/outbound.ts'
import { sandboxIdentity } from './identity.ts'

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

let ready: Promise<void> | undefined
const running = new Map<string, string[]>()

/** Starts the runtime (proxies) once; later calls share the first attempt. @throws why it cannot. */
export function initSandboxRuntime(): Promise<void> {
  ready ??= (async () => {
    if (!SandboxManager.isSupportedPlatform())
      throw new Error('sandbox-runtime does not support this platform')
    const deps = SandboxManager.checkDependencies()
    if (deps.errors.length > 0) throw new Error(`sandbox-runtime is missing ${deps.errors.join(', ')}`)
    await SandboxManager.initialize(structuredClone(BASE))
    await shareSockets()
  })()
  return ready
}

export type WrapRequest = {
  id: string
  command: string
  root: string
  denyRead: string[]
  allowedHosts: string[]
}

/** The shell line that runs `command` confined to `root`, plus a release for its network slot. */
export async function wrapCommand(req: WrapRequest): Promise<{ line: string; release: () => void }> {
  await initSandboxRuntime()
  const allowedHosts = proxyHosts(req.allowedHosts)
  running.set(req.id, allowedHosts)
  applyAllowlist()
  const release = () => {
    if (running.delete(req.id)) applyAllowlist()
  }
  try {
    const line = await SandboxManager.wrapWithSandbox(
      req.command,
      '/bin/bash',
      {
        filesystem: { denyRead: req.denyRead, allowRead: [req.root], allowWrite: [req.root], denyWrite: [] },
        network: { ...BASE.network, allowedDomains: allowedHosts },
      },
      undefined,
      // An opaque id: by default the proxy user name would carry the command text itself.
      { commandId: req.id, commandText: req.id },
    )
    return { line, release }
  } catch (err) {
    release()
    throw err
  }
}

/** The entries the proxy may be given: none that leads inside (see the top of this file). */
export const proxyHosts = (hosts: string[]) => hosts.filter((host) => !namesInside(host))

function applyAllowlist() {
  const lists = [...running.values()]
  const allowed =
    lists.length === 0 ? [] : lists.reduce((acc, list) => acc.filter((host) => list.includes(host)))
  SandboxManager.updateConfig({
    ...structuredClone(BASE),
    network: { ...BASE.network, allowedDomains: allowed },
  })
}

/** The proxy's Unix sockets are created by the server (root); the sandbox uid must reach them. */
async function shareSockets() {
  const id = sandboxIdentity()
  if (!id.drop) return
  await SandboxManager.waitForNetworkInitialization()
  const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()]
  for (const socket of new Set(sockets)) if (socket) await chown(socket, id.uid, id.gid)
}
