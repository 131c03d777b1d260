/**
 * The disk quota while a command runs. Between commands the quota is checked before each one
 * (exec.ts `assertRoomFor`), and each file a command writes is bounded by RLIMIT_FSIZE; a single
 * command writing file after file, each within that limit, was bounded by nothing but its timeout
 * and the disk's speed: 600 MiB in a 4 MiB environment, and on a fast disk gigabytes a minute, on
 * the one disk every tenant and the database share (decision 0490). So while a command runs its
 * folder is measured again and again, and the command is stopped once it is over its quota.
 *
 * One measurement is one `du` child (allocated blocks: the space taken from the host; a sparse
 * file's apparent size is counted after the command, quota.ts). The next comes a second later, or
 * ten times as long as the last one took, whichever is later, so a folder of a million files costs
 * its command's watch at most a tenth of a core.
 */
import { diskBlocks } from './quota.ts'

/** How often a running command's folder is measured, at least. */
const DISK_WATCH_INTERVAL_MS = 1_000
/** A measurement's time is at most this share of the time between measurements. */
const DUTY_SHARE = 10

export type DiskWatch = {
  /** The folder's size when the command was stopped for it, else null. */
  stoppedAt: () => number | null
  /** Ends the watch (the command has ended). */
  end: () => void
}

/**
 * Measures `root` while its command runs and calls `stop` once, when the folder holds more than
 * `limitBytes`. A measurement that fails (du gone, the folder removed) is skipped, not acted on.
 */
export function watchDiskUse(root: string, limitBytes: number, stop: () => void): DiskWatch {
  let ended = false
  let stoppedAt: number | null = null
  let timer: NodeJS.Timeout | undefined
  const measure = async () => {
    const started = performance.now()
    const used = await diskBlocks(root)
    if (ended) return
    if (used !== undefined && used > limitBytes) {
      stoppedAt = used
      ended = true
      stop()
      return
    }
    const took = performance.now() - started
    timer = setTimeout(measure, Math.max(DISK_WATCH_INTERVAL_MS, DUTY_SHARE * took))
  }
  timer = setTimeout(measure, DISK_WATCH_INTERVAL_MS)
  return {
    stoppedAt: () => stoppedAt,
    end() {
      ended = true
      clearTimeout(timer)
    },
  }
}

/** What a command stopped for its folder's size is told, after its own output. */
export const stoppedForDiskNote = (usedText: string, limitText: string) =>
  `[stopped: the environment went over its disk quota while the command ran (${usedText} of ${limitText})]`
