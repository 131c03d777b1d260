/**
 * File events of an environment while it is in use, folded per path into
 * `{ type: create|change|delete, path, timestamp }` (`.git`, `node_modules` and the bootstrap's own
 * files ignored). The agent's tools and the command box watch around each command and return the
 * events (the chat shows them as a "files changed" step); they are also recorded in the
 * environment's audit (kind `change`) with the run or thread, so a job run keeps the list of the
 * files it changed.
 *
 * One interface, two ways: native recursive `fs.watch` for a folder on this server's disk (this
 * file), and a portable poll over the provider's own file listing for a folder elsewhere (a
 * connected machine) or one `fs.watch` cannot watch (watch-poll.ts). providers.ts picks one.
 */
import { watch, type FSWatcher } from 'node:fs'
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { STATE_DIR } from '../bootstrap/setup-shell.ts'

export type FileEvent = { type: 'create' | 'change' | 'delete'; path: string; timestamp: string }

const IGNORED = new Set(['.git', 'node_modules', STATE_DIR])
export const MAX_EVENTS = 500

export const ignoredName = (name: string) => IGNORED.has(name)
const ignored = (path: string) => path.split('/').some(ignoredName)

/** A watch in progress. */
export type Watch = {
  /** Ends the watch and answers its events, one per path, sorted by path. */
  stop: () => Promise<FileEvent[]>
  /** Ends the watch without looking again (the command failed: its events are not wanted). */
  cancel: () => void
}

/** Starts a watch; resolves once it sees the folder (a poll has taken its first listing). */
export type Watcher = () => Promise<Watch>

/** A watch that sees nothing (no folder to watch). */
export const NO_WATCH: Watch = { stop: async () => [], cancel: () => {} }

/**
 * Starts watching `root` with native `fs.watch`, or answers undefined when this file system cannot
 * be watched that way. `stop` waits for the last events to arrive, then answers them, one per path
 * (a file created and then written is a `create`; one gone at the end is a `delete`).
 */
export function watchNative(root: string): Watch | undefined {
  const seen = new Map<string, { first: 'rename' | 'change'; at: number }>()
  let watcher: FSWatcher
  try {
    watcher = watch(root, { recursive: true }, (kind, name) => {
      if (!name) return
      const path = name.toString().split('\\').join('/')
      if (ignored(path) || (!seen.has(path) && seen.size >= MAX_EVENTS)) return
      const entry = seen.get(path)
      if (entry) entry.at = Date.now()
      else seen.set(path, { first: kind, at: Date.now() })
    })
    watcher.on('error', () => watcher.close())
  } catch {
    return undefined
  }
  return {
    cancel: () => watcher.close(),
    stop: async () => {
      // Events of the last writes may still be queued: let the loop deliver them.
      await new Promise((resolve) => setTimeout(resolve, 50))
      watcher.close()
      const events: FileEvent[] = []
      for (const [path, entry] of seen) {
        const info = await lstat(join(root, path)).catch(() => undefined)
        if (info?.isDirectory()) continue
        const type: FileEvent['type'] = !info ? 'delete' : entry.first === 'rename' ? 'create' : 'change'
        events.push({ type, path, timestamp: new Date(entry.at).toISOString() })
      }
      return sortEvents(events)
    },
  }
}

export const sortEvents = (events: FileEvent[]) => events.sort((a, b) => a.path.localeCompare(b.path))
