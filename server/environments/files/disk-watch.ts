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
 *
 * The quota a folder was opened with is what its organisation's other environments left it then
 * (org-disk.ts); commands running at once in several of them each saw that room (decision 0498).
 * So a watch that is told its organisation's share (`orgDisk`) records the folder's size there
 * whenever it has moved by a mebibyte, and is answered the room the others leave it now.
 */
import { diskBlocks } from './quota.ts'

/** How often a running command's folder is measured, at least. */
const DISK_WATCH_INTERVAL_MS = 1_000
/** A measurement's time is at most this share of the time between measurements. */
const DUTY_SHARE = 10
/** How far the folder's size moves before the organisation is told it again. */
const SHARE_STEP_BYTES = 1024 * 1024

/**
 * Records a folder's size while its command runs and answers the room its organisation's other
 * environments leave it now, with what a stop for that says (org-disk.ts `shareOrgDisk`).
 */
export type OrgDiskShare = (usedBytes: number) => Promise<{ roomBytes: number; note: string }>

/** Why a command was stopped: its folder's size, the limit it went over, and what lowered that limit. */
export type DiskStop = { usedBytes: number; limitBytes: number; note?: string }

export type DiskWatch = {
  /** What the command was stopped for, else null. */
  stopped: () => DiskStop | null
  /** Ends the watch (the command has ended). */
  end: () => void
}

/**
 * Measures `root` while its command runs and calls `stop` once, when the folder holds more than
 * `limitBytes` or than its organisation's share leaves it. A measurement that fails (du gone, the
 * folder removed) is skipped, not acted on, and so is a share that cannot be read.
 *
 * A command that began over the quota is one that frees space (exec.ts `assertRoomFor` lets no
 * other start): it is stopped only if the folder grows past the blocks it began with (`startedWith`,
 * measured as this watch measures).
 * Measured against the quota alone, an `rm -rf` of many files, or any cleanup whose container took
 * over a second to start, was stopped before it had freed enough, and the environment stayed full.
 */
export function watchDiskUse(
  root: string,
  limitBytes: number,
  stop: () => void,
  opts: { orgDisk?: OrgDiskShare; startedWith?: number } = {},
): DiskWatch {
  const { orgDisk, startedWith = 0 } = opts
  let ended = false
  let stopped: DiskStop | null = null
  let timer: NodeJS.Timeout | undefined
  let shared: number | undefined
  let org: Awaited<ReturnType<OrgDiskShare>> | undefined
  const measure = async () => {
    const started = performance.now()
    const used = await diskBlocks(root)
    if (ended) return
    if (
      used !== undefined &&
      orgDisk &&
      (shared === undefined || Math.abs(used - shared) >= SHARE_STEP_BYTES)
    ) {
      shared = used
      org = (await orgDisk(used).catch(() => undefined)) ?? org
      if (ended) return
    }
    const byOrg = org !== undefined && org.roomBytes < limitBytes ? org : undefined
    const limit = byOrg?.roomBytes ?? limitBytes
    if (used !== undefined && used > limit && used > startedWith) {
      stopped = { usedBytes: used, limitBytes: limit, ...(byOrg ? { note: byOrg.note } : {}) }
      ended = true
      stop()
      return
    }
    const took = performance.now() - started
    timer = setTimeout(measure, Math.max(DISK_WATCH_INTERVAL_MS, DUTY_SHARE * took))
  }
  timer = setTimeout(measure, DISK_WATCH_INTERVAL_MS)
  return {
    stopped: () => stopped,
    end() {
      ended = true
      clearTimeout(timer)
    },
  }
}

/** What a command stopped for its folder's size is told, after its own output. */
export const stoppedForDiskNote = (usedText: string, limitText: string, note?: string) =>
  `[stopped: the environment went over its disk quota while the command ran (${usedText} of ${limitText})]` +
  (note ? `\n${note}` : '')
