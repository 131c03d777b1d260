/**
 * Snapshots of a `local` environment: a gzipped tarball of its folder taken after setup, restored
 * instead of running setup again. tar runs as the sandbox uid on both sides (it reads only what
 * commands could, and extraction cannot write outside the folder or as anyone else); the server
 * only pipes the bytes to and from ENVIRONMENT_SNAPSHOTS_DIR, which commands cannot read.
 * Secret-bearing files (`.mcp.json`) and the shell's state folder never enter a snapshot. Sparse
 * files are archived as sparse, so a restore takes no more of the host's disk than the folder did.
 */
import { spawn } from 'node:child_process'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename } from 'node:fs/promises'
import { dirname } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { dropPrivileges } from '../exec/identity.ts'
import { emptyFolder, fillFromStaging } from '../exec/inside.ts'
import { SECRET_BEARING } from './project.ts'
import { STATE_DIR } from './setup-shell.ts'

const EXCLUDED = [...SECRET_BEARING, STATE_DIR]

/**
 * A snapshot's file name carries its format: `sparse` since tar archives holes as holes. Snapshots
 * taken before (`<id>.tar.gz`) hold a sparse file's holes as zeros, which a restore would write to
 * the host's disk as real bytes; they are never restored, only removed.
 */
export const snapshotName = (id: string) => `${id}.sparse.tar.gz`
/** The name of a snapshot taken before the `sparse` format: removed wherever it is met. */
export const legacySnapshotName = (id: string) => `${id}.tar.gz`

function tar(args: string[], cwd: string) {
  const argv = [...dropPrivileges(), 'tar', ...args]
  return spawn(argv[0]!, argv.slice(1), {
    cwd,
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

async function finished(child: ReturnType<typeof tar>, what: string) {
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0) throw new Error(`${what} failed: ${stderr.trim()}`)
}

/** Writes the snapshot of `root` to `file` (atomically: a half-written tarball is never used). */
export async function takeSnapshot(root: string, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const partial = `${file}.partial`
  // --sparse keeps a file's holes as holes: without it a setup's `truncate -s 1G` files (no disk
  // used, each within the per-file limit) were archived as zeros and restored as real gigabytes.
  const child = tar(
    ['-czf', '-', '--sparse', ...EXCLUDED.map((p) => `--exclude=./${p}`), '-C', root, '.'],
    root,
  )
  child.stdin!.end()
  await Promise.all([
    pipeline(child.stdout!, createWriteStream(partial, { mode: 0o600 })),
    finished(child, 'snapshot'),
  ])
  await rename(partial, file)
}

/**
 * Replaces the contents of `root` with the snapshot in `file`, extracted where no command can see
 * it and then moved in (inside.ts): a command running meanwhile cannot redirect the extraction.
 */
export async function restoreSnapshot(root: string, file: string): Promise<void> {
  await emptyFolder(root)
  await fillFromStaging(root, '', async (staging) => {
    const child = tar(['-xzf', '-', '--no-same-owner', '--no-same-permissions', '-C', staging], staging)
    child.stdout!.resume()
    await Promise.all([pipeline(createReadStream(file), child.stdin!), finished(child, 'restore')])
  })
}
