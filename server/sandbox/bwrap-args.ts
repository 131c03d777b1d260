/**
 * The bubblewrap command line for one run, as a pure function so a test can pin it.
 * The sandbox sees: system dirs read-only, the module read-only in a size-capped tmpfs at
 * /sandbox (its only writable folder: nothing it writes reaches the host's disk), the bridge
 * socket, a private /proc, /dev and a tiny /tmp. No network namespace, no host env, uid 65534, no
 * capabilities.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { basename } from 'node:path'

export const SANDBOX_DIR = '/sandbox'
export const SANDBOX_SOCKET = '/run/agent-native/bridge.sock'
const NOBODY = '65534'
/** /tmp is not writable under the permission model anyway (TMPDIR is /sandbox): keep it tiny. */
const TMP_BYTES = 1024 * 1024
// /etc is left out on purpose: node needs nothing from it, and it holds host secrets.
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64']

export type BwrapPlan = {
  /** The module on the host, bound read-only as /sandbox/<its name>. */
  entry: string
  /** Size of the /sandbox tmpfs, bytes. */
  scratchBytes: number
  socketPath?: string
  env: Record<string, string>
  /** The node binary, bound read-only when it lives outside the system dirs (nvm, volta). */
  nodePath: string
  /** What to run inside: prlimit … node … */
  command: string[]
}

export function bwrapArgs(plan: BwrapPlan, systemDirs = systemMounts()): string[] {
  const args = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--uid',
    NOBODY,
    '--gid',
    NOBODY,
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    ...systemDirs,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(TMP_BYTES),
    '--tmpfs',
    '/tmp',
    '--size',
    String(plan.scratchBytes),
    '--tmpfs',
    SANDBOX_DIR,
    '--ro-bind',
    plan.entry,
    `${SANDBOX_DIR}/${basename(plan.entry)}`,
    '--chdir',
    SANDBOX_DIR,
  ]
  const node = realpathSync(plan.nodePath)
  if (!SYSTEM_DIRS.some((d) => node.startsWith(`${d}/`))) args.push('--ro-bind', node, node)
  if (plan.socketPath) args.push('--ro-bind', plan.socketPath, SANDBOX_SOCKET)
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value)
  return [...args, '--', ...plan.command]
}

/** Read-only binds for the system dirs, keeping merged-/usr symlinks (/lib → usr/lib) as symlinks. */
export function systemMounts(): string[] {
  const out: string[] = []
  for (const dir of SYSTEM_DIRS) {
    try {
      const stat = lstatSync(dir)
      if (stat.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir)
      else if (stat.isDirectory()) out.push('--ro-bind', dir, dir)
    } catch {
      // Not on this system.
    }
  }
  return out
}
