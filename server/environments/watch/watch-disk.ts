/**
 * The listing of an environment's folder on this disk, for the poll watcher (watch-poll.ts): one
 * GNU `find` child per listing, which walks by descriptor and never follows a link, prints each
 * entry's type, size, time and path, and is stopped at the entry, path-text and time bounds. The server only
 * reads its output, so a command that makes 100,000 files costs the event loop a few milliseconds
 * of parsing, never a synchronous walk (Node 20's recursive `fs.watch` on Linux walks the tree
 * synchronously on every change: 1,500 files stalled the server for seconds).
 */
import { spawn } from 'node:child_process'
import {
  depthOf,
  MAX_POLL_DEPTH,
  MAX_POLL_ENTRIES,
  MAX_SCAN_CHARS,
  SCAN_BUDGET_MS,
  type Bounds,
  type Scan,
  type Scanner,
} from './watch-poll.ts'
import { ignoredName, IGNORED_NAMES } from './watch.ts'

const prune = IGNORED_NAMES.flatMap((name, i) => [...(i > 0 ? ['-o'] : []), '-name', name])
/** `type size mtime path`, NUL-terminated: a path may hold tabs and newlines, never a NUL. */
const FORMAT = '%y\\t%s\\t%T@\\t%P\\0'

const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')

/** A scanner over `root` on this disk. */
export const diskScanner =
  (root: string): Scanner =>
  (bounds) =>
    scanDisk(root, {
      maxEntries: bounds.maxEntries ?? MAX_POLL_ENTRIES,
      maxChars: bounds.maxChars ?? MAX_SCAN_CHARS,
      budgetMs: bounds.budgetMs ?? SCAN_BUDGET_MS,
    })

function scanDisk(root: string, bounds: Required<Bounds>): Promise<Scan> {
  const { maxEntries, maxChars, budgetMs } = bounds
  // As deep as the machine's listing goes (MAX_POLL_DEPTH): a folder at that depth is listed
  // itself but not what is in it, so it never counts as listed whole.
  const args = [
    '.',
    ...['-maxdepth', String(MAX_POLL_DEPTH), '-mindepth', '1'],
    ...['(', ...prune, ')', '-prune', '-o', '-printf', FORMAT],
  ]
  const scan: Scan = { files: new Map(), dirs: new Set(['']), listed: new Set() }
  // find prints a folder before what is in it (pre-order), so a folder is listed whole once an
  // entry outside it follows; the folders still open when the bounds stop it are not.
  const open = ['']
  let count = 0
  let chars = 0
  let cut = false
  /** Adds one record; false when the scan is full (the entry is not added, its folder stays open). */
  const take = (record: string) => {
    const [type, size, mtime, ...rest] = record.split('\t')
    const path = rest.join('\t')
    if (!path || path.split('/').some(ignoredName)) return true
    chars += path.length
    if (chars > maxChars) return false
    const parent = parentOf(path)
    while (open.length > 0 && open.at(-1) !== parent) scan.listed.add(open.pop()!)
    count++
    if (type === 'd') {
      scan.dirs.add(path)
      if (depthOf(path) < MAX_POLL_DEPTH) open.push(path)
    } else scan.files.set(path, { size: Number(size), mtimeMs: Number(mtime) * 1000 })
    return count < maxEntries
  }
  return new Promise((resolve, reject) => {
    const child = spawn('find', args, {
      cwd: root,
      env: { PATH: '/usr/bin:/bin', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const stop = () => {
      cut = true
      child.kill('SIGKILL')
    }
    const timer = setTimeout(stop, budgetMs)
    let pending = ''
    child.stdout.on('data', (chunk: Buffer) => {
      if (cut) return
      const records = (pending + chunk.toString('utf8')).split('\0')
      pending = records.pop() ?? ''
      for (const record of records) if (!take(record)) return stop()
    })
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      // find exits 1 when an entry vanished mid-walk; what it printed still stands.
      if (!cut && code !== 0 && code !== 1) return reject(new Error(`listing ${root} failed (exit ${code})`))
      if (!cut && count === 0 && code !== 0) return reject(new Error(`${root} cannot be listed`))
      if (!cut) for (const dir of open) scan.listed.add(dir)
      resolve(scan)
    })
  })
}
