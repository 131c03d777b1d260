/**
 * Listing and searching an environment's files. Folders are read through their opened descriptor
 * (paths.ts `handlePath`) and entered with O_NOFOLLOW one level at a time, so nothing here follows a
 * symlink out of the root: links are listed as links, never descended.
 */
import { spawn } from 'node:child_process'
import { constants } from 'node:fs'
import { lstat, open, opendir } from 'node:fs/promises'
import { badRequest } from '../../lib/errors.ts'
import { type FileContext, type ListDirectoryInput, type SearchFilesInput } from './files-schema.ts'
import { MAX_READ_BYTES } from './files.ts'
import { checkRelativePath, handlePath, openForRead, type Opened } from './paths.ts'
import { ripgrepInView, SEARCH_ENV, viewFailure } from './search-view.ts'

/** Most entries list_directory returns. */
export const MAX_ENTRIES = 1000
/**
 * Most characters of paths one listing returns, all entries together. Each entry names its whole
 * path, so a chain of nested folders with 250-character names costs the square of its depth: 1,000
 * such entries were 125 MB of JSON, built and sent in one response. Ordinary trees stay far below.
 */
export const MAX_LISTING_CHARS = 1024 * 1024
/**
 * Deepest folder a recursive listing enters (as deep as the watcher looks): each level holds a
 * descriptor open while the levels below are read.
 */
export const MAX_LIST_DEPTH = 64
/** Most matching lines search_files returns. */
export const MAX_MATCHES = 200
/**
 * Most characters search_files returns. A line is cut at 400 columns, but its file's path is not:
 * 200 matches in a file 250 folders deep would be 12 MB.
 */
export const MAX_SEARCH_CHARS = 256 * 1024
/**
 * Largest file search_files reads, as read_file. ripgrep holds a whole line in memory to search it,
 * so one file of a single line (a command makes 1 GiB of one in a second, within the per-file
 * limit) cost about twice its size in the server's memory for each search, and searches need only
 * the right to see the environment. Larger files are skipped in a folder and refused by name.
 */
export const MAX_SEARCH_FILE_BYTES = MAX_READ_BYTES
/** Folders search skips (as ripgrep does for hidden ones); listing still shows them. */
const SKIPPED = new Set(['node_modules', '.git'])

export type Entry = { path: string; type: 'file' | 'folder' | 'symlink' | 'other'; size: number }

export async function listDirectory(ctx: FileContext, input: ListDirectoryInput) {
  const opened = await openForRead(ctx.root, input.path ?? '', { directory: true })
  const listing: Listing = { entries: [], chars: 0, cut: false }
  try {
    await walk(handlePath(opened), opened.rel, Boolean(input.recursive), listing, 1)
  } finally {
    await opened.handle.close()
  }
  const { entries } = listing
  entries.sort((a, b) => a.path.localeCompare(b.path))
  const truncated = listing.cut || entries.length > MAX_ENTRIES
  return {
    path: opened.rel || '.',
    entries: entries.slice(0, MAX_ENTRIES),
    ...(truncated ? { truncated } : {}),
  }
}

/** What a listing has gathered: its entries, the characters of their paths, whether it stopped early. */
type Listing = { entries: Entry[]; chars: number; cut: boolean }

async function walk(dirPath: string, rel: string, recursive: boolean, listing: Listing, depth: number) {
  const out = listing.entries
  // Entry by entry, not readdir's whole array: a command can make a folder of millions of names,
  // and only the first MAX_ENTRIES + 1 (one more says "truncated") are ever needed.
  for await (const dirent of await opendir(dirPath)) {
    if (out.length > MAX_ENTRIES || listing.cut) return // leaving the loop closes the folder
    const path = rel ? `${rel}/${dirent.name}` : dirent.name
    listing.chars += path.length
    if (listing.chars > MAX_LISTING_CHARS) {
      listing.cut = true
      return
    }
    const stat = await lstat(`${dirPath}/${dirent.name}`).catch(() => null)
    if (!stat) continue
    const type = stat.isSymbolicLink()
      ? 'symlink'
      : stat.isDirectory()
        ? 'folder'
        : stat.isFile()
          ? 'file'
          : 'other'
    out.push({ path, type, size: type === 'file' ? stat.size : 0 })
    if (recursive && type === 'folder') {
      if (depth >= MAX_LIST_DEPTH) {
        listing.cut = true // listed, but what is in it is not
        continue
      }
      const child = await openFolder(`${dirPath}/${dirent.name}`)
      if (!child) continue
      try {
        await walk(`/proc/self/fd/${child.fd}`, path, true, listing, depth + 1)
      } finally {
        await child.close()
      }
    }
  }
}

/** Opens a sub-folder without following a link (it may have been swapped since it was listed). */
const openFolder = (path: string) =>
  open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch(() => null)

/** Longest a search may run; then it is stopped and what it found so far is answered. */
const SEARCH_TIMEOUT_MS = 20_000

export type SearchResult = {
  output: string
  matches: number
  truncated: boolean
  engine: 'ripgrep' | 'machine'
}

/**
 * Searches file contents: `file:line: text` per match. Always ripgrep, in a child with a time
 * limit: its regex engine runs in linear time, where JavaScript's backtracks (`^(a+)+$` on a long
 * line would hold the event loop for minutes), and the caller's pattern never runs in this process.
 * The child runs in the environment's command view (search-view.ts): ripgrep reopens folders by
 * name, so a command swapping one for a link sends it wherever the link points.
 */
export async function searchFiles(ctx: FileContext, input: SearchFilesInput): Promise<SearchResult> {
  if (input.glob !== undefined) checkRelativePath(input.glob, 'glob')
  const opened = await openForRead(ctx.root, input.path ?? '', { allowRoot: true })
  try {
    const stat = await opened.handle.stat()
    const isFolder = stat.isDirectory()
    // A FIFO a command left would wait for a writer until the time limit.
    if (!isFolder && !stat.isFile()) throw badRequest(`path: "${opened.rel}" is not a regular file`, 'path')
    if (!isFolder && stat.size > MAX_SEARCH_FILE_BYTES) {
      throw badRequest(
        `path: "${opened.rel}" is more than ${MAX_SEARCH_FILE_BYTES} bytes; the most search_files reads is ${MAX_SEARCH_FILE_BYTES}`,
        'path',
      )
    }
    const { lines, timedOut, cut } = await ripgrep(ctx.root, opened, input, isFolder)
    const truncated = lines.length > MAX_MATCHES || timedOut || cut
    let output = lines.slice(0, MAX_MATCHES).join('\n')
    if (lines.length > MAX_MATCHES)
      output += `\n[… more than ${MAX_MATCHES} matches: narrow the pattern, path or glob …]`
    else if (cut)
      output += `\n[… more than ${MAX_SEARCH_CHARS / 1024} KiB of matches: narrow the path or glob …]`
    if (timedOut) output += `\n[… stopped after ${SEARCH_TIMEOUT_MS / 1000} s: narrow the path or glob …]`
    if (lines.length === 0 && !timedOut && !cut) output = 'No matches.'
    return {
      output: ctx.redact ? ctx.redact(output.trim()) : output.trim(),
      matches: Math.min(lines.length, MAX_MATCHES),
      truncated,
      engine: 'ripgrep',
    }
  } finally {
    await opened.handle.close()
  }
}

/**
 * Runs rg in the environment's view (search-view.ts): in the opened folder, as the view resolves
 * its path, or on the opened file, handed over as its standard input so no name is resolved again.
 */
async function ripgrep(
  root: string,
  opened: Opened,
  input: SearchFilesInput,
  isFolder: boolean,
): Promise<{ lines: string[]; timedOut: boolean; cut: boolean }> {
  const args = [
    '--line-number',
    '--no-heading',
    '--color',
    'never',
    '--max-columns',
    '400',
    '--max-columns-preview',
    '--max-filesize',
    String(MAX_SEARCH_FILE_BYTES),
    // A file that vanished or the sandbox uid may not read is skipped, not a refused pattern.
    '--no-messages',
  ]
  if (isFolder) {
    // The name ends at a NUL, not at the first `:N:`: a file may be called `notes:7:x.txt`.
    args.push('--null')
    for (const skipped of SKIPPED) args.push('--glob', `!**/${skipped}/**`)
    if (input.glob) args.push('--glob', input.glob)
  } else args.push('--no-filename')
  args.push('--max-count', String(MAX_MATCHES + 1), '-e', input.pattern, '--', isFolder ? '.' : '-')
  const argv = await ripgrepInView(root, isFolder && opened.rel ? `${root}/${opened.rel}` : root, args)
  return new Promise((resolve, reject) => {
    // stdout and stderr are pipes (a descriptor as stdin leaves them typed as maybe null).
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: '/',
      env: SEARCH_ENV,
      stdio: [isFolder ? 'ignore' : opened.handle.fd, 'pipe', 'pipe'],
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, SEARCH_TIMEOUT_MS)
    const out: string[] = []
    let chars = 0
    let cut = false
    let buffered = ''
    let stderr = ''
    const format = isFolder
      ? (line: string) => formatLine(opened.rel, line)
      : (line: string) => `${opened.rel}:${line.replace(/^(\d+):/, '$1: ')}`
    child.stdout!.on('data', (chunk: Buffer) => {
      if (cut) return
      buffered += chunk.toString('utf8')
      // A file with Windows line endings: the `\r` before each newline is not the text's.
      const parts = buffered.split(/\r?\n/)
      buffered = parts.pop() ?? ''
      for (const line of parts) {
        if (out.length > MAX_MATCHES || cut) break
        const formatted = format(line)
        chars += formatted.length
        if (chars > MAX_SEARCH_CHARS) cut = true
        else out.push(formatted)
      }
      // No line ends within the limit (a path that long has no newline yet): stop reading it.
      if (buffered.length > MAX_SEARCH_CHARS) cut = true
      if (out.length > MAX_MATCHES || cut) child.kill()
    })
    // The start: where bubblewrap says it could not start the search.
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8')
    })
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      const failed = viewFailure(stderr, opened.rel)
      if (failed) reject(failed)
      // ripgrep also answers 2 for a file it could not read; only a refused pattern or glob says why.
      else if (code === 2 && out.length === 0 && stderr.trim())
        reject(badRequest(`pattern: ripgrep refused it: ${stderr.trim()}`, 'pattern'))
      else resolve({ lines: out, timedOut, cut })
    })
  })
}

/**
 * `./src/a.ts` NUL `12:text` → `src/a.ts:12: text`, relative to the environment root. The text may
 * hold any character (`s`): a `\r` in it failed the match, so a line was shown unformatted.
 */
function formatLine(base: string, line: string): string {
  const end = line.indexOf('\0')
  const match = end < 0 ? null : /^(\d+):(.*)$/s.exec(line.slice(end + 1))
  if (!match) return line.replace('\0', ':')
  const name = line.slice(0, end).replace(/^\.\//, '')
  const file = base ? `${base}/${name}` : name
  return `${file}:${match[1]}: ${match[2]}`
}
