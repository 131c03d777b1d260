/**
 * The bounds of every process the server starts for an environment on this host, a command in its
 * sandbox (exec.ts) and a build's clone (host-run.ts) alike: the environment's box (a cgroup its
 * processes share, capping their number and memory together, server/sandbox/cgroup.ts), the
 * sandbox uid, and per-process limits on CPU time and on the size of any one file (RLIMIT_FSIZE at
 * the environment's disk quota).
 */
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { type Box, openBox } from '../../sandbox/cgroup.ts'
import type { TaskGroup } from '../../sandbox/cgroup-group.ts'
import type { ExecLimits } from './exec-schema.ts'
import { dropPrivileges } from './identity.ts'

export const MiB = 1024 * 1024
/** Processes the sandbox itself adds in a box (bwrap twice, the proxy relays, the shells). */
const SANDBOX_PROCESSES = 16

/** One box per environment folder: all its commands share its process and memory caps. */
const boxName = (root: string) =>
  `env-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 24)}`

/**
 * Per-process limits. In a box, processes and memory are the box's (for all of the environment's
 * processes together); without one (no cgroups here) they fall back to RLIMIT_NPROC, which counts
 * every process of the sandbox uid, and RLIMIT_AS per process.
 */
function prlimitArgs(limits: ExecLimits, box: Box | undefined): string[] {
  const args = ['prlimit', `--cpu=${limits.cpuSeconds}`, `--fsize=${limits.diskMb * MiB}`, '--core=0']
  if (!box) args.push(`--as=${limits.memoryMb * MiB}`, `--nproc=${limits.processes}`)
  return [...args, '--']
}

export type EnvironmentLimits = {
  /** argv to put in front of the program: joins the box, drops to the sandbox uid, then prlimit. */
  prefix: string[]
  /** The box's processes, for the disk watch's count of held files; none without a box. */
  group?: TaskGroup
  /** Drops this use of the box (the last one kills what is left in it). */
  release(): Promise<void>
}

/** Opens (or joins) the box of the environment at `root` and builds the line that bounds a process in it. */
export async function limitInEnvironment(root: string, limits: ExecLimits): Promise<EnvironmentLimits> {
  const box = await openBox(boxName(root), {
    processes: limits.processes + SANDBOX_PROCESSES,
    memoryBytes: limits.memoryMb * MiB,
  })
  return {
    prefix: [...(box?.prefix ?? []), ...dropPrivileges(), ...prlimitArgs(limits, box)],
    ...(box ? { group: box.group } : {}),
    release: async () => box?.release(),
  }
}
