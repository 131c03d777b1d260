/**
 * The disk a command's processes hold in files no folder names any more. A file deleted while a
 * process keeps it open (or mapped), or made nameless from the start (O_TMPFILE), keeps its blocks
 * until the last holder lets go, and `du` over the folder cannot see it: a command in a 4 MiB
 * environment opened 100 files, deleted each and wrote 3 MiB to each (each within RLIMIT_FSIZE),
 * and held 300 MiB of the host's disk, unstopped, for as long as it ran (an outside review).
 *
 * So the disk watch (disk-watch.ts) adds what the command's group of processes (its environment's
 * box, or its container's cgroup) holds: the files behind each thread's descriptors
 * (`/proc/<tid>/fd`) and each process's mappings (`/proc/<pid>/map_files`) that are regular, have
 * no link left, belong to the uid commands run as and sit on the folder's filesystem (a command
 * writes nowhere else on it; its /tmp is memory, charged to its box). Each file is counted once,
 * by its allocated blocks.
 *
 * The group is frozen while it is read (cgroup-group.ts), so a process that forks and exits in a
 * loop cannot slip between the list and the look. The reading is GNU find and awk in a child, as
 * root: the event loop only gets one number, and nothing is opened, only stat'ed. A group that
 * holds more descriptors than that child can look at in SCAN_TIMEOUT_MS (millions) is answered
 * `tooMany`, and the watch stops its command: not knowing is not zero.
 */
import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { groupIds, type TaskGroup, whileFrozen } from '../../sandbox/cgroup-group.ts'

/** What a command's processes hold in deleted files: bytes, or more descriptors than could be looked at. */
export type HeldCount = { bytes: number } | { tooMany: true }

/** How long one count may take; the group is frozen meanwhile. */
export const SCAN_TIMEOUT_MS = 10_000

// Positional: the uid and the filesystem's device number; the /proc folders to look in come on
// stdin, one a line, once the group is frozen (the shell and awk are running by then, so the
// freeze lasts the look, not the start of three programs).
const SCAN = `uid=$1 dev=$2; shift 2
{
  while IFS= read -r folder; do set -- "$@" "$folder"; done
  [ $# -eq 0 ] || find -L "$@" -mindepth 1 -maxdepth 1 -type f -links 0 -uid "$uid" -printf '%D %i %b\\n' 2>/dev/null
} | awk -v dev="$dev" '$1 == dev && !seen[$2]++ { blocks += $3 } END { printf "%.0f\\n", blocks * 512 }'`

/**
 * A counter of what `group()` (resolved on each count: a container's appears once it runs) holds
 * in deleted files of uid `uid` on `root`'s filesystem. Undefined when there is no group (yet) or
 * the count failed for a reason of the server's (no find, a group that is gone).
 */
export function heldFilesCounter(
  root: string,
  uid: number,
  group: () => Promise<TaskGroup | undefined>,
): () => Promise<HeldCount | undefined> {
  let device: Promise<number | undefined> | undefined
  return async () => {
    device ??= stat(root).then(
      (info) => info.dev,
      () => undefined,
    )
    const [dev, held] = await Promise.all([device, group()])
    if (dev === undefined || !held) return undefined
    const scanner = startScan(uid, dev)
    try {
      return await whileFrozen(held, async () => {
        const [threads, processes] = await Promise.all([
          groupIds(held, 'threads'),
          groupIds(held, 'processes'),
        ])
        return scanner.look([
          ...threads.map((tid) => `/proc/${tid}/fd`),
          ...processes.map((pid) => `/proc/${pid}/map_files`),
        ])
      })
    } finally {
      scanner.cancel()
    }
  }
}

/** Starts the scanning child; `look` hands it the folders and answers its count. */
function startScan(uid: number, dev: number) {
  const child = spawn('/bin/sh', ['-c', SCAN, 'held-files', String(uid), String(dev)], {
    env: { PATH: '/usr/bin:/bin', LANG: 'C' },
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true, // its own group, so a timeout kills find and awk with it
  })
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  let out = ''
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    kill()
  }, SCAN_TIMEOUT_MS)
  child.stdin.on('error', () => {}) // a child that died first closed it: its close says what happened
  child.stdout.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-100)))
  const done = new Promise<HeldCount | undefined>((resolve) => {
    child.on('error', () => resolve(undefined))
    child.on('close', () => {
      if (timedOut) return resolve({ tooMany: true })
      const bytes = Number(/^(\d+)\s*$/.exec(out)?.[1])
      resolve(Number.isFinite(bytes) ? { bytes } : undefined)
    })
  }).finally(() => clearTimeout(timer))
  return {
    look(folders: string[]) {
      child.stdin.end(folders.map((folder) => `${folder}\n`).join(''))
      return done
    },
    /** Ends a child that was never handed its folders (the freeze failed). */
    cancel() {
      if (child.exitCode === null && child.signalCode === null) kill()
    },
  }
}
