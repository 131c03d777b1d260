/**
 * search_files: ripgrep over an environment's files, in the view a command of the environment
 * gets (search-view.ts), never as the server.
 */
import { spawn } from 'node:child_process'
import { badRequest } from '../../lib/errors.ts'
import {
  MAX_MATCHES,
  MAX_SEARCH_CHARS,
  MAX_SEARCH_FILE_BYTES,
  type SearchResult,
} from '../files/files-list.ts'
import { type FileContext, type SearchFilesInput } from '../files/files-schema.ts'
import { checkRelativePath, openForRead, type Opened } from '../files/paths.ts'
import { ripgrepInView, SEARCH_ENV, viewFailure } from './search-view.ts'

/** Folders search skips (as ripgrep does for hidden ones); listing still shows them. */
const SKIPPED = new Set(['node_modules', '.git'])

/** Longest a search may run; then it is stopped and what it found so far is answered. */
const SEARCH_TIMEOUT_MS = 20_000

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
