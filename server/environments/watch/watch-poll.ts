/**
 * The file watcher: list the tree (size and modification time of every file) before a command,
 * every second or so while it runs, and after it, through whatever lists the folder (a connected
 * machine's own `list_directory`, or on this disk a `find` child: watch-disk.ts), and fold the
 * differences into file events (watch.ts).
 *
 * Bounded: a listing stops descending after MAX_POLL_ENTRIES entries, MAX_SCAN_CHARS characters of
 * paths or SCAN_BUDGET_MS, never enters `.git` or `node_modules`, and never goes more than
 * MAX_POLL_DEPTH folders down. What a
 * bounded listing did not reach is unknown, not deleted: a path counts as absent only when its
 * nearest listed ancestor was listed whole. That ancestor is found once per folder, not once per
 * path: the tree is a tenant's (decision 0419). Listings are spaced at least as far apart as the
 * last one took, so a slow machine is not flooded.
 * A listing without modification times (a client older than this watcher) compares sizes only.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { FileEntry } from '../../machines/protocol.ts'
import { type FileEvent, ignoredName, MAX_EVENTS, NO_WATCH, sortEvents, type Watch } from './watch.ts'

/** One entry of a folder listing: a machine's own (the protocol's), or this disk's. */
export type ListedEntry = FileEntry
/** Lists one folder (`''` is the root) of the watched tree. */
export type Lister = (dir: string) => Promise<ListedEntry[]>

export const MAX_POLL_ENTRIES = 5000
export const POLL_INTERVAL_MS = 1000
export const SCAN_BUDGET_MS = 20_000
/**
 * Folders below the root a listing descends into (deeper ones count as not listed). A command (or
 * a machine's listing) made a tree 2,000 folders deep; a real project is a few dozen at most.
 */
export const MAX_POLL_DEPTH = 64
/**
 * Most characters of paths one listing holds, all entries together. Each entry is its whole path:
 * 5,000 entries 64 folders of 255-character names down were 80 MB of paths, held by every listing
 * while a command ran (three at once). An ordinary tree of 5,000 entries is well under 1 MB.
 */
export const MAX_SCAN_CHARS = 2 * 1024 * 1024
/** Folders listed at once (each is one call to a machine). */
const PARALLEL = 8

type Stat = { size: number; mtimeMs?: number }
export type Scan = {
  files: Map<string, Stat>
  /** Folders seen (the root is `''`). */
  dirs: Set<string>
  /** Folders listed whole: a path missing below one of these is gone. */
  listed: Set<string>
}

export type Bounds = { maxEntries?: number; maxChars?: number; budgetMs?: number }
/** Takes one bounded listing of the whole tree. @throws when the root cannot be listed. */
export type Scanner = (bounds: Bounds) => Promise<Scan>

/** A scanner over a folder-by-folder lister (a connected machine's). */
export const byListing =
  (list: Lister): Scanner =>
  (bounds) =>
    scanTree(list, bounds)

/** Lists the tree breadth first, within the bounds. @throws when the root cannot be listed. */
export async function scanTree(list: Lister, bounds: Bounds = {}): Promise<Scan> {
  const maxEntries = bounds.maxEntries ?? MAX_POLL_ENTRIES
  const maxChars = bounds.maxChars ?? MAX_SCAN_CHARS
  const deadline = Date.now() + (bounds.budgetMs ?? SCAN_BUDGET_MS)
  const scan: Scan = { files: new Map(), dirs: new Set(['']), listed: new Set() }
  let count = 0
  let chars = 0
  const queue = ['']
  while (queue.length > 0 && count < maxEntries && chars <= maxChars && Date.now() < deadline) {
    const batch = queue.splice(0, PARALLEL)
    const results = await Promise.all(
      batch.map((dir) =>
        list(dir).catch((err) => {
          if (dir === '') throw err
          return undefined // gone or unreadable since its parent was listed: unknown
        }),
      ),
    )
    batch.forEach((dir, i) => {
      const entries = results[i]
      if (!entries || chars > maxChars) return
      for (const e of entries) {
        if (ignoredName(e.name)) continue
        const path = dir ? `${dir}/${e.name}` : e.name
        chars += path.length
        if (chars > maxChars) return // full: this folder was not listed whole
        count++
        if (e.type === 'directory') {
          scan.dirs.add(path)
          if (depthOf(path) < MAX_POLL_DEPTH) queue.push(path)
        } else scan.files.set(path, { size: e.size, mtimeMs: e.mtimeMs })
      }
      scan.listed.add(dir)
    })
  }
  return scan
}

/** How many folders down `path` is (`a` is 1, `a/b` is 2). */
export const depthOf = (path: string) => {
  let depth = 1
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) depth++
  return depth
}

const parentOf = (path: string) => {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

type State = Stat | 'absent' | 'unknown'

/**
 * A file's state in a scan: its stat, `absent`, or `unknown` (below a folder the scan did not
 * list). What a folder says of the paths below it is remembered in `folders`: asking again for
 * every file rebuilt each of its ancestors, quadratic in the depth, and 2,500 new files 2,000
 * folders down held the event loop for about a minute.
 */
export function stateIn(scan: Scan, path: string, folders = new Map<string, 'absent' | 'unknown'>()): State {
  const stat = scan.files.get(path)
  if (stat) return stat
  const walked: string[] = []
  let dir = parentOf(path)
  let state: 'absent' | 'unknown' | undefined
  for (;;) {
    state = folders.get(dir)
    if (state) break
    walked.push(dir)
    if (scan.dirs.has(dir)) {
      state = scan.listed.has(dir) ? 'absent' : 'unknown'
      break
    }
    if (dir === '') {
      state = 'unknown'
      break
    }
    dir = parentOf(dir)
  }
  for (const folder of walked) folders.set(folder, state)
  return state
}

const same = (a: Stat, b: Stat) => a.size === b.size && a.mtimeMs === b.mtimeMs

/** The paths whose state differs between two scans (unknowns skipped). */
export function differences(before: Scan, after: Scan): string[] {
  const changed: string[] = []
  const inBefore = new Map<string, 'absent' | 'unknown'>()
  const inAfter = new Map<string, 'absent' | 'unknown'>()
  for (const path of new Set([...before.files.keys(), ...after.files.keys()])) {
    const a = stateIn(before, path, inBefore)
    const b = stateIn(after, path, inAfter)
    if (a === 'unknown' || b === 'unknown') continue
    if (a !== 'absent' && b !== 'absent' && same(a, b)) continue
    changed.push(path)
  }
  return changed
}

/**
 * The event of a path that differed at some point: by its state before and at the end (one gone at
 * the end is a `delete`, as with the native watcher, even when the command made it first).
 */
function eventType(before: Stat | 'absent' | 'unknown', after: Stat | 'absent' | 'unknown') {
  if (after === 'absent') return 'delete'
  return before === 'absent' ? 'create' : 'change'
}

/**
 * Starts a poll watch over `scan`: the first listing now, then one every `intervalMs` (or as long
 * as the last one took) until `stop`, which lists once more. A root that cannot be listed gives a
 * watch that sees nothing: the command itself reports why its folder is unreachable.
 */
export async function pollTree(
  scan: Scanner,
  options: { intervalMs?: number; maxEntries?: number } = {},
): Promise<Watch> {
  const bounds = { maxEntries: options.maxEntries }
  const interval = options.intervalMs ?? POLL_INTERVAL_MS
  let baseline: Scan
  try {
    baseline = await scan(bounds)
  } catch {
    return NO_WATCH
  }
  let previous = baseline
  const touched = new Map<string, number>() // path → when a difference was last seen
  const compare = (next: Scan) => {
    const at = Date.now()
    for (const path of differences(previous, next)) {
      if (touched.has(path) || touched.size < MAX_EVENTS) touched.set(path, at)
    }
    previous = next
  }
  const ending = new AbortController()
  const loop = (async () => {
    let wait = interval
    while (!ending.signal.aborted) {
      try {
        await sleep(wait, undefined, { signal: ending.signal })
      } catch {
        return // stopped while waiting
      }
      if (ending.signal.aborted) return
      const started = Date.now()
      // A listing that fails (the machine went away for a moment) is skipped; the next one compares.
      await scan(bounds).then(compare, () => {})
      wait = Math.max(interval, Date.now() - started)
    }
  })()
  return {
    cancel: () => ending.abort(),
    stop: async () => {
      ending.abort()
      await loop
      const last = await scan(bounds).catch(() => undefined)
      if (last) compare(last)
      const end = last ?? previous
      const events: FileEvent[] = []
      const inBaseline = new Map<string, 'absent' | 'unknown'>()
      const inEnd = new Map<string, 'absent' | 'unknown'>()
      for (const [path, at] of touched) {
        const type = eventType(stateIn(baseline, path, inBaseline), stateIn(end, path, inEnd))
        events.push({ type, path, timestamp: new Date(at).toISOString() })
      }
      return sortEvents(events)
    },
  }
}
