/**
 * File events of a `local` environment while it is in use: native recursive `fs.watch` on its
 * folder (`.git`, `node_modules` and the bootstrap's own files ignored), folded per path into
 * `{ type: create|change|delete, path, timestamp }`. The agent's tools watch around each command
 * and return the events (the chat shows them as a "files changed" step); they are also recorded
 * in the environment's audit (kind `change`) with the run or thread, so a job run keeps the list
 * of the files it changed.
 */
import { watch, type FSWatcher } from 'node:fs'
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { STATE_DIR } from './setup-shell.ts'

export type FileEvent = { type: 'create' | 'change' | 'delete'; path: string; timestamp: string }

const IGNORED = new Set(['.git', 'node_modules', STATE_DIR])
export const MAX_EVENTS = 500

const ignored = (path: string) => path.split('/').some((segment) => IGNORED.has(segment))

export type Watch = { stop: () => Promise<FileEvent[]> }

/**
 * Starts watching `root`. `stop` waits for the last events to arrive, then answers them, one per
 * path (a file created and then written is a `create`; one gone at the end is a `delete`).
 */
export function watchTree(root: string): Watch {
  const seen = new Map<string, { first: 'rename' | 'change'; at: number }>()
  let watcher: FSWatcher | undefined
  try {
    watcher = watch(root, { recursive: true }, (kind, name) => {
      if (!name) return
      const path = name.toString().split('\\').join('/')
      if (ignored(path) || (!seen.has(path) && seen.size >= MAX_EVENTS)) return
      const entry = seen.get(path)
      if (entry) entry.at = Date.now()
      else seen.set(path, { first: kind, at: Date.now() })
    })
    watcher.on('error', () => watcher?.close())
  } catch {
    watcher = undefined // no watching on this file system: no events
  }
  return {
    stop: async () => {
      // Events of the last writes may still be queued: let the loop deliver them.
      await new Promise((resolve) => setTimeout(resolve, 50))
      watcher?.close()
      const events: FileEvent[] = []
      for (const [path, entry] of seen) {
        const info = await lstat(join(root, path)).catch(() => undefined)
        if (info?.isDirectory()) continue
        const type: FileEvent['type'] = !info ? 'delete' : entry.first === 'rename' ? 'create' : 'change'
        events.push({ type, path, timestamp: new Date(entry.at).toISOString() })
      }
      return events.sort((a, b) => a.path.localeCompare(b.path))
    },
  }
}
