/**
 * Who sandboxed commands run as. When the server runs as root they run as SANDBOX_UID (RLIMIT_NPROC
 * is not enforced for root, and a root command inside a user namespace keeps capabilities there);
 * otherwise as the server's own, already unprivileged, user.
 */
import { spawn } from 'node:child_process'
import { chmod, chown, mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { HttpError } from '../../lib/errors.ts'
import { logger } from '../../lib/logger.ts'

/** The uid commands run as when the server runs as root; RLIMIT_NPROC is not enforced for root. */
export const SANDBOX_UID = 61000

export function sandboxIdentity(): { uid: number; gid: number; drop: boolean } {
  const uid = process.getuid?.() ?? SANDBOX_UID
  return uid === 0
    ? { uid: SANDBOX_UID, gid: SANDBOX_UID, drop: true }
    : { uid, gid: process.getgid?.() ?? uid, drop: false }
}

/** The user switch in front of every sandboxed command (empty when already unprivileged). */
export function dropPrivileges(): string[] {
  const id = sandboxIdentity()
  if (!id.drop) return []
  return ['setpriv', `--reuid=${id.uid}`, `--regid=${id.gid}`, '--clear-groups', '--inh-caps=-all', '--']
}

/**
 * Creates an environment's folder owned by the sandbox uid (so commands can write there) and makes
 * its parent traversable but not listable by that uid (0711), so one environment cannot list others.
 */
export async function prepareFolder(root: string): Promise<{ uid: number; gid: number }> {
  const id = sandboxIdentity()
  await mkdir(root, { recursive: true })
  if (id.drop) {
    await chmod(dirname(root), 0o711)
    await chown(root, id.uid, id.gid)
  }
  await chmod(root, 0o700)
  if (id.drop) await assertReachable(dirname(root), id.uid)
  return { uid: id.uid, gid: id.gid }
}

/**
 * Every folder above an environment must be searchable by the sandbox uid, or bwrap cannot bind it.
 * A deployment's mistake, not the person's: they get a 503 that says so (the server's folders are
 * not theirs to see), the operator's log says which folder and how to fix it.
 */
async function assertReachable(dir: string, uid: number) {
  for (let current = dir; ; current = dirname(current)) {
    const info = await stat(current)
    if (info.uid !== uid && (info.mode & 0o001) === 0) {
      logger.error(
        `environments cannot run under ${dir}: the sandbox user (uid ${uid}) cannot enter ${current}; ` +
          'allow it (chmod o+x) or set ENVIRONMENTS_DIR to a folder outside it',
      )
      throw new HttpError(
        503,
        'environments_unavailable',
        'Environments cannot run on this server: the folder they live in is closed to the user ' +
          "commands run as. The server's log says how to fix it; tell whoever runs it.",
      )
    }
    if (current === dirname(current)) return
  }
}

export type Spawned = { code: number | null; output: string }

/** Runs argv as the sandbox uid with `env` only; output (stdout + stderr) capped at 64 KiB. */
export function spawnAsSandbox(argv: string[], cwd: string, env: Record<string, string>): Promise<Spawned> {
  const full = [...dropPrivileges(), ...argv]
  return new Promise((resolve, reject) => {
    const child = spawn(full[0]!, full.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const take = (chunk: Buffer) => {
      if (output.length < 65_536) output += chunk.toString('utf8')
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}
