/**
 * File events of an environment while it is in use, folded per path into
 * `{ type: create|change|delete, path, timestamp }` (`.git`, `node_modules` and the bootstrap's own
 * files ignored). The agent's tools and the command box watch around each command and return the
 * events (the chat shows them as a "files changed" step); they are also recorded in the
 * environment's audit (kind `change`) with the run or thread, so a job run keeps the list of the
 * files it changed.
 *
 * One way for every folder: a bounded poll over a listing (watch-poll.ts), the provider's own for
 * a connected machine, a `find` child for this server's disk (watch-disk.ts). Native recursive
 * `fs.watch` is not used: on Node 20 for Linux it walks the tree synchronously on the event loop,
 * so one command making many files froze the server. providers.ts picks the listing.
 */
import { STATE_DIR } from '../bootstrap/setup-shell.ts'

export type FileEvent = { type: 'create' | 'change' | 'delete'; path: string; timestamp: string }

export const IGNORED_NAMES = ['.git', 'node_modules', STATE_DIR]
const IGNORED = new Set(IGNORED_NAMES)
export const MAX_EVENTS = 500
/**
 * Most characters of a path an event is shown and recorded with (Linux's PATH_MAX); longer ones
 * are cut saying how long they were. A command can nest 64 folders of 255-character names: 500
 * such events were 8 MB in its answer, in the audit and in GET .../changes.
 */
export const MAX_CHANGE_PATH = 4096

export const ignoredName = (name: string) => IGNORED.has(name)

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

export const sortEvents = (events: FileEvent[]) => events.sort((a, b) => a.path.localeCompare(b.path))
