/**
 * A program the server runs for an environment outside its sandbox, on this host (a build's git
 * clone, which must reach the network and write to a staging folder no command can see). It gets
 * every bound a command has but bubblewrap's view: the environment's box and per-process limits
 * (environment-limits.ts, so no file it writes outgrows the disk quota), a wall-clock timeout, a
 * watch of the folder it writes that stops it once that folder is over the room it was given
 * (disk-watch.ts, with the organisation's share), and the caller's signal. Every stop kills its
 * whole process group (spawnCollect), which holds the helpers it starts itself (git's
 * git-remote-https, index-pack, upload-pack), and the box's release kills anything left in the box.
 */
import type { ExecLimits } from './exec-schema.ts'
import { type Collected, spawnCollect } from './exec.ts'
import { limitInEnvironment } from './environment-limits.ts'
import { type DiskStop, type OrgDiskShare, watchDiskUse } from '../files/disk-watch.ts'

export type HostRunBounds = {
  /** The environment's folder: the program runs in its box. */
  root: string
  /** The environment's limits: CPU, per-file size, processes, memory, and `timeoutSeconds`. */
  limits: ExecLimits
  /** The folder the program writes, measured while it runs, and the bytes it may hold. */
  watch: { folder: string; limitBytes: number; orgDisk?: OrgDiskShare }
  /** Aborting kills the program's process group (a cancelled build). */
  signal?: AbortSignal
}

export type HostRun = Collected & {
  /** Why the disk watch stopped the program, else null. */
  stoppedForDisk: DiskStop | null
  /** True when `signal` stopped it. */
  cancelled: boolean
}

/** Runs argv as the sandbox uid under `bounds`, with `env` only, in `cwd`. */
export async function runOnHost(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  bounds: HostRunBounds,
): Promise<HostRun> {
  const { limits, watch } = bounds
  const limited = await limitInEnvironment(bounds.root, limits)
  try {
    const overDisk = new AbortController()
    const disk = watchDiskUse(watch.folder, watch.limitBytes, () => overDisk.abort(), {
      orgDisk: watch.orgDisk,
    })
    const signal = bounds.signal ? AbortSignal.any([bounds.signal, overDisk.signal]) : overDisk.signal
    const run = await spawnCollect(
      [...limited.prefix, ...argv],
      cwd,
      env,
      limits.timeoutSeconds,
      limits.outputKb,
      undefined,
      undefined,
      { signal },
    ).finally(disk.end)
    return { ...run, stoppedForDisk: disk.stopped(), cancelled: bounds.signal?.aborted ?? false }
  } finally {
    await limited.release()
  }
}
