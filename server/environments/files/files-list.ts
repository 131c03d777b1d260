/**
 * Listing and searching an environment's files. Folders are read through their opened descriptor
 * (paths.ts `handlePath`) and entered with O_NOFOLLOW one level at a time, so nothing here follows a
 * symlink out of the root: links are listed as links, never descended.
 */
import { spawn, spawnSync } from 'node:child_process'
import { constants } from 'node:fs'
import { lstat, open, readdir } from 'node:fs/promises'
import picomatch from 'picomatch'
import { badRequest } from '../../lib/errors.ts'
import { type FileContext, type ListDirectoryInput, type SearchFilesInput } from './files-schema.ts'
import { checkRelativePath, handlePath, openForRead, type Opened } from './paths.ts'

/** Most entries list_directory returns. */
export const MAX_ENTRIES = 1000
/** Most matching lines search_files returns. */
export const MAX_MATCHES = 200
/** Folders search skips (as ripgrep does for hidden ones); listing still shows them. */
const SKIPPED = new Set(['node_modules', '.git'])

export type Entry = { path: string; type: 'file' | 'folder' | 'symlink' | 'other'; size: number }

export async function listDirectory(ctx: FileContext, input: ListDirectoryInput) {
  const opened = await openForRead(ctx.root, input.path ?? '', { directory: true })
  const entries: Entry[] = []
  try {
    await walk(handlePath(opened), opened.rel, Boolean(input.recursive), entries)
  } finally {
    await opened.handle.close()
  }
  entries.sort((a, b) => a.path.localeCompare(b.path))
  const truncated = entries.length > MAX_ENTRIES
  return {
    path: opened.rel || '.',
    entries: entries.slice(0, MAX_ENTRIES),
    ...(truncated ? { truncated } : {}),
  }
}

async function walk(dirPath: string, rel: string, recursive: boolean, out: Entry[]) {
  for (const dirent of await readdir(dirPath, { withFileTypes: true })) {
    if (out.length > MAX_ENTRIES) return
    const path = rel ? `${rel}/${dirent.name}` : dirent.name
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
      const child = await openFolder(`${dirPath}/${dirent.name}`)
      if (!child) continue
      try {
        await walk(`/proc/self/fd/${child.fd}`, path, true, out)
      } finally {
        await child.close()
      }
    }
  }
}

/** Opens a sub-folder without following a link (it may have been swapped since it was listed). */
const openFolder = (path: string) =>
  open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch(() => null)

let ripgrepFound: boolean | undefined
function hasRipgrep(): boolean {
  ripgrepFound ??= spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0
  return ripgrepFound
}

export type SearchResult = {
  output: string
  matches: number
  truncated: boolean
  engine: 'ripgrep' | 'js' | 'machine'
}

/** Searches file contents: `file:line: text` per match, with ripgrep when present. */
export async function searchFiles(
  ctx: FileContext,
  input: SearchFilesInput,
  opts: { ripgrep?: boolean } = {},
): Promise<SearchResult> {
  let regex: RegExp
  try {
    regex = new RegExp(input.pattern)
  } catch (err) {
    throw badRequest(`pattern: not a valid regular expression (${(err as Error).message})`, 'pattern')
  }
  if (input.glob !== undefined) checkRelativePath(input.glob, 'glob')
  const opened = await openForRead(ctx.root, input.path ?? '', { allowRoot: true })
  try {
    const isFolder = (await opened.handle.stat()).isDirectory()
    const useRipgrep = (opts.ripgrep ?? true) && hasRipgrep() && isFolder
    const lines = useRipgrep
      ? await ripgrep(opened, input)
      : await jsSearch(opened, isFolder, regex, input.glob)
    const truncated = lines.length > MAX_MATCHES
    let output = lines.slice(0, MAX_MATCHES).join('\n')
    if (truncated) output += `\n[… more than ${MAX_MATCHES} matches: narrow the pattern, path or glob …]`
    if (lines.length === 0) output = 'No matches.'
    return {
      output: ctx.redact ? ctx.redact(output) : output,
      matches: Math.min(lines.length, MAX_MATCHES),
      truncated,
      engine: useRipgrep ? 'ripgrep' : 'js',
    }
  } finally {
    await opened.handle.close()
  }
}

/** Runs rg inside the opened folder (its cwd is the descriptor, so no name is resolved again). */
function ripgrep(opened: Opened, input: SearchFilesInput): Promise<string[]> {
  const args = [
    '--line-number',
    '--no-heading',
    '--color',
    'never',
    '--max-columns',
    '400',
    '--max-columns-preview',
  ]
  for (const skipped of SKIPPED) args.push('--glob', `!**/${skipped}/**`)
  if (input.glob) args.push('--glob', input.glob)
  args.push('--max-count', String(MAX_MATCHES + 1), '-e', input.pattern, '--', '.')
  return new Promise((resolve, reject) => {
    const child = spawn('rg', args, {
      cwd: `/proc/${process.pid}/fd/${opened.handle.fd}`,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    })
    const out: string[] = []
    let buffered = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      for (const line of parts) if (out.length <= MAX_MATCHES) out.push(formatLine(opened.rel, line))
      if (out.length > MAX_MATCHES) child.kill()
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 2 && out.length === 0)
        reject(badRequest(`pattern: ripgrep refused it: ${stderr.trim()}`, 'pattern'))
      else resolve(out)
    })
  })
}

/** `./src/a.ts:12:text` → `src/a.ts:12: text`, relative to the environment root. */
function formatLine(base: string, line: string): string {
  const match = /^(?:\.\/)?(.*?):(\d+):(.*)$/.exec(line)
  if (!match) return line
  const file = base ? `${base}/${match[1]}` : match[1]
  return `${file}:${match[2]}: ${match[3]}`
}

async function jsSearch(opened: Opened, isFolder: boolean, regex: RegExp, glob?: string): Promise<string[]> {
  const out: string[] = []
  const matchesGlob = glob ? picomatch(glob, { basename: !glob.includes('/'), dot: true }) : () => true
  const searchData = (data: Buffer | null, rel: string) => {
    if (!data || data.length > 1024 * 1024 || data.subarray(0, 8192).includes(0)) return
    data
      .toString('utf8')
      .split('\n')
      .forEach((text, i) => {
        if (out.length <= MAX_MATCHES && regex.test(text)) out.push(`${rel}:${i + 1}: ${text.slice(0, 400)}`)
      })
  }
  const searchFile = async (path: string, rel: string) => {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
      () => null,
    )
    if (!handle) return
    try {
      if ((await handle.stat()).isFile()) searchData(await handle.readFile(), rel)
    } finally {
      await handle.close()
    }
  }
  if (!isFolder) {
    searchData(await opened.handle.readFile(), opened.rel)
    return out
  }
  const visit = async (dirPath: string, rel: string) => {
    for (const dirent of await readdir(dirPath, { withFileTypes: true })) {
      if (out.length > MAX_MATCHES || dirent.name.startsWith('.') || SKIPPED.has(dirent.name)) continue
      const path = rel ? `${rel}/${dirent.name}` : dirent.name
      if (dirent.isFile() && matchesGlob(path)) await searchFile(`${dirPath}/${dirent.name}`, path)
      if (!dirent.isDirectory()) continue
      const child = await openFolder(`${dirPath}/${dirent.name}`)
      if (!child) continue
      try {
        await visit(`/proc/self/fd/${child.fd}`, path)
      } finally {
        await child.close()
      }
    }
  }
  await visit(handlePath(opened), opened.rel)
  return out
}
