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
 * whenever it has moved by a step (a sixteenth of the folder's own limit, at most a mebibyte), and
 * is answered the room the others leave it now. Each running command's recorded size lags by up to
 * a step, so together they can pass the total by a step each (decision 0528): a whole mebibyte each
 * let four commands in 4 MiB folders pass a 10 MiB total by 3 MiB before any was stopped.
 *
 * `du` sees only files the folder still names. A watch told how to count what the command's
 * processes hold in deleted files (`held`, held-files.ts) counts that too, at the same pace but on
 * its own (a container's count first waits for the engine to name its processes), and adds the
 * latest count to each measurement.
 */
import { formatBytes } from '../../lib/text.ts'
import { type HeldCount, SCAN_TIMEOUT_MS } from './held-files.ts'
import { diskBlocks } from './quota.ts'

/** How often a running command's folder is measured, at least. */
const DISK_WATCH_INTERVAL_MS = 1_000
/** A measurement's time is at most this share of the time between measurements. */
const DUTY_SHARE = 10
/** How far the folder's size moves before the organisation is told it again, at most. */
const SHARE_STEP_MAX_BYTES = 1024 * 1024
/** The step as a share of the folder's own limit: small folders lag their organisation less. */
const SHARE_STEPS_PER_LIMIT = 16

/**
 * Records a folder's size while its command runs and answers the room its organisation's other
 * environments leave it now, with what a stop for that says (org-disk.ts `shareOrgDisk`).
 */
export type OrgDiskShare = (usedBytes: number) => Promise<{ roomBytes: number; note: string }>

/**
 * Why a command was stopped: its folder's size (with what its processes held in deleted files,
 * `heldBytes` of it), the limit it went over, and what lowered that limit; or, `uncountable`, that
 * what its processes held could not be counted in time.
 */
export type DiskStop = {
  usedBytes: number
  limitBytes: number
  heldBytes?: number
  note?: string
  uncountable?: true
}

export type DiskWatch = {
  /** What the command was stopped for, else null. */
  stopped: () => DiskStop | null
  /** Ends the watch (the command has ended). */
  end: () => void
}

/**
 * Measures `root` while its command runs and calls `stop` once, when the folder holds more than
 * `limitBytes` or than its organisation's share leaves it. A measurement that fails (du gone, the
 * folder removed) is skipped, not acted on, and so is a share that cannot be read; a count of held
 * files that ran out of time (millions of descriptors) stops the command.
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
  stopCommand: () => void,
  opts: {
    orgDisk?: OrgDiskShare
    startedWith?: number
    /** Counts what the command's processes hold in deleted files (held-files.ts). */
    held?: () => Promise<HeldCount | undefined>
  } = {},
): DiskWatch {
  const { orgDisk, startedWith = 0 } = opts
  const shareStep = Math.min(SHARE_STEP_MAX_BYTES, Math.ceil(limitBytes / SHARE_STEPS_PER_LIMIT))
  let ended = false
  let stopped: DiskStop | null = null
  const timers = new Set<NodeJS.Timeout>()
  let shared: number | undefined
  let org: Awaited<ReturnType<OrgDiskShare>> | undefined
  /** What the processes held in deleted files at the last count (its own pace: a container's takes asking the engine). */
  let heldBytes = 0
  const halt = (stop: DiskStop) => {
    stopped = stop
    ended = true
    stopCommand()
  }
  /** Runs `work` a second after it last ended, or ten times as long as it took, until the watch ends. */
  const repeat = (work: () => Promise<void>) => {
    const after = (delay: number) => {
      const timer = setTimeout(async () => {
        timers.delete(timer)
        const started = performance.now()
        await work()
        if (!ended) after(Math.max(DISK_WATCH_INTERVAL_MS, DUTY_SHARE * (performance.now() - started)))
      }, delay)
      timers.add(timer)
    }
    after(DISK_WATCH_INTERVAL_MS)
  }
  const measure = async () => {
    const blocks = await diskBlocks(root)
    if (ended || blocks === undefined) return
    const used = blocks + heldBytes
    if (orgDisk && (shared === undefined || Math.abs(used - shared) >= shareStep)) {
      shared = used
      org = (await orgDisk(used).catch(() => undefined)) ?? org
      if (ended) return
    }
    const byOrg = org !== undefined && org.roomBytes < limitBytes ? org : undefined
    const limit = byOrg?.roomBytes ?? limitBytes
    if (used > limit && used > startedWith) {
      halt({
        usedBytes: used,
        limitBytes: limit,
        ...(heldBytes > 0 ? { heldBytes } : {}),
        ...(byOrg ? { note: byOrg.note } : {}),
      })
    }
  }
  const countHeld = async (held: NonNullable<typeof opts.held>) => {
    const count = await held().catch(() => undefined)
    if (ended || !count) return
    if ('tooMany' in count) return halt({ usedBytes: heldBytes, limitBytes, uncountable: true })
    heldBytes = count.bytes
  }
  repeat(measure)
  if (opts.held) repeat(() => countHeld(opts.held!))
  return {
    stopped: () => stopped,
    end() {
      ended = true
      for (const timer of timers) clearTimeout(timer)
    },
  }
}

/** What a command stopped for its folder's size is told, after its own output. */
export const stoppedForDiskNote = (stop: DiskStop) =>
  stop.uncountable
    ? '[stopped: the command held more open files than the disk quota watch could count in ' +
      `${SCAN_TIMEOUT_MS / 1000} s; what they hold on the disk cannot go unmeasured]`
    : quotaStopNote(stop)

const quotaStopNote = (stop: DiskStop) =>
  `[stopped: the environment went over its disk quota while the command ran (${formatBytes(stop.usedBytes)} of ${formatBytes(stop.limitBytes)}` +
  (stop.heldBytes
    ? `, ${formatBytes(stop.heldBytes)} of it in deleted files its processes still held open`
    : '') +
  ')]' +
  (stop.note ? `\n${stop.note}` : '')
