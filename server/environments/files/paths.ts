/**
 * Confinement of every file operation to an environment's root. A path is refused when it is
 * absolute, contains `..`, or resolves (through symlinks) outside the root. The check is made on
 * the real path at use time, and made again on what was actually opened: files are opened with
 * O_NOFOLLOW on the final component and the opened descriptor's own path (/proc/self/fd) must lie
 * inside the root, so a symlink swapped in between the check and the open is refused, not followed.
 *
 * Known residue: creating the missing parent folders of a write is not atomic; a swap racing it can
 * at worst leave an empty folder outside the root. The file itself is never written outside.
 */
import { constants, existsSync } from 'node:fs'
import { type FileHandle, mkdir, open, readlink, realpath, unlink } from 'node:fs/promises'
import { join, posix, sep } from 'node:path'
import { badRequest, notFound } from '../../lib/errors.ts'

export const MAX_PATH_LENGTH = 1024
const HAS_PROC_FD = existsSync('/proc/self/fd')
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants

/** Lets a test act in a race window: between the check and the open (to swap a path for a symlink). */
export type RaceHooks = {
  afterCheck?: () => Promise<void> | void
  /** read_file: after the opened file's size was checked, before it is read. */
  afterSize?: () => Promise<void> | void
}

export type Opened = { handle: FileHandle; realPath: string; rel: string; created: boolean }

const invalid = (message: string, field: string) => badRequest(`${field}: ${message}`, field)

/**
 * Checks a path's spelling: relative, no `..`, no NUL. Returns it normalised (`./a//b` → `a/b`,
 * the root itself → ''). @throws HttpError 400 naming `field`.
 */
export function checkRelativePath(input: unknown, field = 'path', allowRoot = false): string {
  if (input === undefined || input === null || input === '') {
    if (allowRoot) return ''
    throw invalid('is required, e.g. src/index.js', field)
  }
  if (typeof input !== 'string') throw invalid('must be a string', field)
  if (input.length > MAX_PATH_LENGTH) throw invalid(`must be at most ${MAX_PATH_LENGTH} characters`, field)
  if (input.includes('\0')) throw invalid('must not contain a NUL character', field)
  if (input.startsWith('/') || input.startsWith('~')) {
    throw invalid(`"${input}" must be relative to the environment root, without a leading / or ~`, field)
  }
  const segments = input.split('/').filter((s) => s !== '' && s !== '.')
  if (segments.includes('..'))
    throw invalid(`"${input}" must not contain .. (stay inside the environment)`, field)
  if (segments.length === 0 && !allowRoot) throw invalid('must name a file, not the environment root', field)
  return segments.join('/')
}

/** True when `target` is `root` or lies below it (both real, absolute paths). */
export const isInside = (root: string, target: string): boolean =>
  target === root || target.startsWith(root.endsWith(sep) ? root : root + sep)

function outside(rel: string, field: string) {
  return invalid(`"${rel}" resolves outside the environment (through a symbolic link)`, field)
}

/** The real path a relative path names now; `exists: false` when only its parent exists. */
async function resolveReal(rootReal: string, rel: string, field: string) {
  const candidate = join(rootReal, rel)
  try {
    const real = await realpath(candidate)
    if (!isInside(rootReal, real)) throw outside(rel, field)
    return { real, exists: true }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const parent = await realpath(join(rootReal, posix.dirname(rel))).catch(() => {
    throw notFound(`${field}: "${posix.dirname(rel)}" does not exist in the environment`)
  })
  if (!isInside(rootReal, parent)) throw outside(rel, field)
  return { real: join(parent, posix.basename(rel)), exists: false }
}

/** Where a descriptor really points, checked against the root; closes it and throws if outside. */
async function assertOpenedInside(opened: Opened, rootReal: string, field: string) {
  const actual = HAS_PROC_FD
    ? await readlink(`/proc/self/fd/${opened.handle.fd}`)
    : await realpath(opened.realPath).catch(() => '')
  if (isInside(rootReal, actual)) return
  await opened.handle.close()
  if (opened.created) await unlink(actual).catch(() => {})
  throw outside(opened.rel, field)
}

async function openChecked(path: string, flags: number, rel: string, field: string) {
  try {
    return await open(path, flags, 0o644)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ELOOP') throw outside(rel, field) // the final component became a symlink
    if (code === 'ENOENT') throw notFound(`${field}: "${rel}" does not exist in the environment`)
    if (code === 'ENOTDIR') throw invalid(`"${rel}" is not a folder`, field)
    if (code === 'EISDIR') throw invalid(`"${rel}" is a folder, not a file`, field)
    if (code === 'ENXIO') throw notRegular(rel, field) // a FIFO nobody reads, or a socket
    throw err
  }
}

/** Opens an existing file or folder for reading. */
export async function openForRead(
  root: string,
  input: unknown,
  opts: { field?: string; directory?: boolean; allowRoot?: boolean; hooks?: RaceHooks } = {},
): Promise<Opened> {
  const field = opts.field ?? 'path'
  const rel = checkRelativePath(input, field, opts.directory || opts.allowRoot)
  const rootReal = await realpath(root)
  const { real, exists } = await resolveReal(rootReal, rel, field)
  if (!exists) throw notFound(`${field}: "${rel}" does not exist in the environment`)
  await opts.hooks?.afterCheck?.()
  const flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (opts.directory ? O_DIRECTORY : 0)
  const opened = { handle: await openChecked(real, flags, rel, field), realPath: real, rel, created: false }
  await assertOpenedInside(opened, rootReal, field)
  return opened
}

const notRegular = (rel: string, field: string) => invalid(`"${rel}" is not a regular file`, field)

/**
 * Opens a file for writing, creating it (and its folders) when missing. Never truncates. Only a
 * regular file is opened: O_NONBLOCK makes a FIFO a command left fail at once (without it the open
 * would wait for a reader in one of libuv's four threads, and four such waits stall every file and
 * DNS call of the server), and one that a command is reading is refused after the open.
 */
export async function openForWrite(
  root: string,
  input: unknown,
  opts: { field?: string; hooks?: RaceHooks; owner?: { uid: number; gid: number } } = {},
): Promise<Opened> {
  const field = opts.field ?? 'path'
  const rel = checkRelativePath(input, field)
  const rootReal = await realpath(root)
  await makeFolders(rootReal, posix.dirname(rel), field, opts.owner)
  const { real } = await resolveReal(rootReal, rel, field)
  await opts.hooks?.afterCheck?.()
  let opened: Opened
  try {
    const handle = await open(real, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, 0o644)
    opened = { handle, realPath: real, rel, created: true }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    opened = {
      handle: await openChecked(real, O_WRONLY | O_NOFOLLOW | O_NONBLOCK, rel, field),
      realPath: real,
      rel,
      created: false,
    }
  }
  await assertOpenedInside(opened, rootReal, field)
  if (!(await opened.handle.stat()).isFile()) {
    await opened.handle.close()
    throw notRegular(rel, field)
  }
  if (opened.created && opts.owner) await opened.handle.chown(opts.owner.uid, opts.owner.gid)
  return opened
}

/**
 * Creates missing folders one at a time, each under a parent whose real path was just checked; a
 * folder that exists must resolve inside the root. New folders are chowned through their own
 * descriptor (opened without following a link), never by name.
 */
export async function makeFolders(
  rootReal: string,
  relDir: string,
  field: string,
  owner?: { uid: number; gid: number },
) {
  if (relDir === '.' || relDir === '') return
  let current = rootReal
  for (const segment of relDir.split('/')) {
    const next = join(current, segment)
    try {
      await mkdir(next)
      if (owner)
        await open(next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).then(async (h) => {
          await h.chown(owner.uid, owner.gid)
          await h.close()
        })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    current = await realpath(next)
    if (!isInside(rootReal, current)) throw outside(relDir, field)
  }
}

/** A path through which an opened folder can be read without resolving its name again. */
export const handlePath = (opened: Opened): string =>
  HAS_PROC_FD ? `/proc/self/fd/${opened.handle.fd}` : opened.realPath
