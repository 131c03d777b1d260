/**
 * The one way the server itself touches a path inside an environment outside the file tools:
 * whatever a command left there (a symbolic link to a host file, a folder swapped for a link, a
 * FIFO) is attacker-controlled. Each helper resolves the path inside the root, opens with
 * O_NOFOLLOW and checks what it opened (paths.ts), and answers "not there" for anything else, so
 * the server never reads, writes, chowns or removes a host file through a link a command planted.
 * Work that needs a whole tree (a clone, a tarball, a disk-use count) runs as the sandbox uid in a
 * child that does not follow links (git.ts, snapshot.ts, quota.ts), never as the server.
 */
import { chown, mkdtemp, readdir, realpath, rename, rm, rmdir, unlink } from 'node:fs/promises'
import { basename, dirname, join, posix } from 'node:path'
import { HttpError } from '../../lib/errors.ts'
import { sandboxIdentity, spawnAsSandbox } from './identity.ts'
import { readAtMost } from '../files/bounded-read.ts'
import { checkRelativePath, handlePath, makeFolders, openForRead, openForWrite } from '../files/paths.ts'

type Owner = { uid: number; gid: number }

/** A refusal of paths.ts (outside, a link, missing) means "not a file of this environment". */
const refused = (err: unknown) => err instanceof HttpError && err.status < 500

/**
 * The text of a regular file inside `root`, or undefined when it is missing, a link leading
 * outside, a FIFO or other non-file, or larger than `maxBytes`.
 */
export async function readInside(root: string, rel: string, maxBytes: number): Promise<string | undefined> {
  let opened
  try {
    opened = await openForRead(root, rel)
  } catch (err) {
    if (refused(err)) return undefined
    throw err
  }
  try {
    const info = await opened.handle.stat()
    if (!info.isFile() || info.size > maxBytes) return undefined
    return (await readAtMost(opened.handle, maxBytes))?.toString('utf8') // it may have grown since
  } finally {
    await opened.handle.close()
  }
}

/** True when `rel` is a regular file inside `root` (a link leading outside is not). */
export async function fileInside(root: string, rel: string): Promise<boolean> {
  try {
    const opened = await openForRead(root, rel)
    try {
      return (await opened.handle.stat()).isFile()
    } finally {
      await opened.handle.close()
    }
  } catch (err) {
    if (refused(err)) return false
    throw err
  }
}

/** Writes a whole file inside `root` (created owned by `owner`), never through a link. */
export async function writeInside(root: string, rel: string, content: string, owner?: Owner) {
  const opened = await openForWrite(root, rel, { owner })
  try {
    const data = Buffer.from(content, 'utf8')
    await opened.handle.truncate(0)
    await opened.handle.write(data, 0, data.length, 0)
  } finally {
    await opened.handle.close()
  }
}

/**
 * Makes `rel` a real folder inside `root` owned by `owner`; an existing one that resolves outside
 * (a link a command or a cloned repository planted) is refused with a 400.
 */
export async function folderInside(root: string, rel: string, owner?: Owner): Promise<void> {
  const clean = checkRelativePath(rel)
  await makeFolders(await realpath(root), clean, 'path', owner)
  // A link to a folder inside passes makeFolders; the caller wants the folder itself.
  const opened = await openForRead(root, clean, { directory: true })
  await opened.handle.close()
}

/**
 * Removes the entry `rel` (a file or a link itself, never what a link points to) through the
 * descriptor of its parent folder, so a parent swapped for a link cannot redirect the unlink.
 * With `folder`, `rel` is an empty folder instead, removed the same way; one with anything in it,
 * or a link (rmdir never follows one), stays. Missing or outside: nothing happens.
 */
export async function removeInside(root: string, rel: string, { folder = false } = {}): Promise<void> {
  const clean = checkRelativePath(rel)
  let parent
  try {
    parent = await openForRead(root, posix.dirname(clean), { directory: true, allowRoot: true })
  } catch (err) {
    if (refused(err)) return
    throw err
  }
  try {
    const entry = `${handlePath(parent)}/${basename(clean)}`
    await (folder ? rmdir(entry) : unlink(entry)).catch((err: NodeJS.ErrnoException) => {
      if (!KEPT.has(err.code ?? '')) throw err
    })
  } finally {
    await parent.handle.close()
  }
}

/** Why an entry stays: gone already, a folder (for unlink), not empty or not a folder (for rmdir). */
const KEPT = new Set(['ENOENT', 'EISDIR', 'EPERM', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'])

const TOOLS_PATH = '/usr/bin:/bin'

/**
 * Removes everything inside `root` (the folder itself stays), as the sandbox uid with
 * `find -delete`, which walks by descriptor and never follows a link: a folder a running command
 * swaps for a link mid-way cannot turn the server's recursive delete onto a host folder.
 */
export async function emptyFolder(root: string): Promise<void> {
  const done = await spawnAsSandbox(['find', root, '-mindepth', '1', '-delete'], root, { PATH: TOOLS_PATH })
  if (done.code !== 0) throw new Error(`emptying ${basename(root)} failed: ${done.output.slice(-500)}`)
}

/** Removes one top-level entry of `root` (a link itself, a file, or a whole folder) the same way. */
export async function removeEntry(root: string, name: string): Promise<void> {
  if (!/^[^/\0]+$/.test(name) || name === '.' || name === '..') throw new Error(`not one entry: ${name}`)
  const path = `${root}/${name}`
  const done = await spawnAsSandbox(['rm', '-rf', '--one-file-system', '--', path], root, {
    PATH: TOOLS_PATH,
  })
  if (done.code !== 0) throw new Error(`removing ${name} failed: ${done.output.slice(-500)}`)
}

/**
 * Fills `rel` ('' for the root itself) with what `produce` writes into a fresh staging folder,
 * then moves it in. The staging folder sits beside the environment, where no sandboxed command
 * can see it, so nothing a command does can redirect the clone, copy or extraction writing
 * there; the move goes through the descriptor of the target's parent folder.
 */
export async function fillFromStaging(root: string, rel: string, produce: (dir: string) => Promise<void>) {
  const staging = await mkdtemp(join(dirname(root), '.staging-'))
  try {
    const id = sandboxIdentity()
    if (id.drop) await chown(staging, id.uid, id.gid)
    await produce(staging)
    if (rel === '') {
      for (const entry of await readdir(staging)) await rename(join(staging, entry), join(root, entry))
      return
    }
    const clean = checkRelativePath(rel)
    const owner = id.drop ? { uid: id.uid, gid: id.gid } : undefined
    if (posix.dirname(clean) !== '.') await folderInside(root, posix.dirname(clean), owner)
    const parent = await openForRead(root, posix.dirname(clean), { directory: true, allowRoot: true })
    try {
      const target = `${handlePath(parent)}/${basename(clean)}`
      await unlink(target).catch(() => {}) // a file or link in the way; a folder stays and fails below
      await rename(staging, target)
    } finally {
      await parent.handle.close()
    }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}
