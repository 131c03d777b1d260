/**
 * Finds the isolation tools on this machine once per process: bubblewrap (checked by actually
 * running it, since user namespaces can be switched off even when the binary exists) and prlimit.
 */
import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

const SEARCH = ['/usr/bin', '/usr/local/bin', '/bin']

/** Absolute path of an executable from a fixed list of system dirs, or null. */
export function findExecutable(name: string, dirs = SEARCH): string | null {
  for (const dir of dirs) {
    const candidate = path.join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here.
    }
  }
  return null
}

let bwrapProbe: Promise<string | null> | undefined

/** The bwrap path when it can create the namespaces we use here; null otherwise. Cached. */
export function usableBwrap(): Promise<string | null> {
  bwrapProbe ??= new Promise((resolve) => {
    const bwrap = findExecutable('bwrap')
    if (!bwrap) return resolve(null)
    const args = ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--', 'true']
    execFile(bwrap, args, { timeout: 5_000 }, (err) => resolve(err ? null : bwrap))
  })
  return bwrapProbe
}

/** Node's flag for the permission model: experimental on Node 20, stable from 22. */
export function permissionFlag(version = process.versions.node): string {
  const major = Number(version.split('.')[0])
  return major >= 22 ? '--permission' : '--experimental-permission'
}
