/**
 * How commands are isolated on this server, decided once: Anthropic's sandbox-runtime (bubblewrap
 * + a filtering network proxy + seccomp), else a bubblewrap profile with no network at all, else
 * nothing, and then exec is refused with the reason. Never unsandboxed. Either way the command runs
 * as an unprivileged uid (setpriv, when the server is root) under prlimit's CPU, memory, process
 * and file-size limits, which the sandboxes themselves do not set.
 */
import { spawnSync } from 'node:child_process'
import { dropPrivileges, sandboxIdentity } from './identity.ts'
import { initSandboxRuntime } from './sandbox-runtime.ts'

export type Mechanism =
  { kind: 'sandbox-runtime' } | { kind: 'bwrap'; why: string } | { kind: 'none'; why: string }

/** Each probe answers null when the mechanism works here, else why it does not. */
export type Probes = {
  tools: () => Promise<string | null>
  sandboxRuntime: () => Promise<string | null>
  bubblewrap: () => Promise<string | null>
}

const works = (cmd: string, args: string[]) =>
  spawnSync(cmd, args, { stdio: 'ignore', timeout: 10_000 }).status === 0

const realProbes: Probes = {
  tools: async () => {
    if (!works('prlimit', ['--version'])) return 'prlimit (util-linux) is not installed'
    if (sandboxIdentity().drop && !works('setpriv', ['--version']))
      return 'setpriv (util-linux) is not installed'
    return null
  },
  sandboxRuntime: async () => {
    try {
      await initSandboxRuntime()
    } catch (err) {
      return (err as Error).message
    }
    return null
  },
  bubblewrap: async () => {
    const args = [...dropPrivileges(), 'bwrap', '--unshare-all', '--ro-bind', '/', '/', '--', '/bin/true']
    return works(args[0]!, args.slice(1)) ? null : 'bubblewrap (bwrap) is missing or cannot create namespaces'
  },
}

/** Decides the mechanism with the given probes (tests inject failing ones). */
export async function detectMechanism(probes: Probes = realProbes): Promise<Mechanism> {
  const tools = await probes.tools()
  if (tools) return { kind: 'none', why: tools }
  const runtime = await probes.sandboxRuntime()
  if (!runtime) return { kind: 'sandbox-runtime' }
  const bwrap = await probes.bubblewrap()
  if (!bwrap)
    return { kind: 'bwrap', why: `sandbox-runtime cannot start (${runtime}); commands have no network` }
  return { kind: 'none', why: `${runtime}; ${bwrap}` }
}

let detected: Promise<Mechanism> | undefined
/** The mechanism for this process, detected on first use. */
export function currentMechanism(): Promise<Mechanism> {
  detected ??= detectMechanism()
  return detected
}
