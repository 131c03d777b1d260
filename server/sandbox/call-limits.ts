/**
 * Limits of one short call (a run-code module, a cli tool): its processes and their memory in a box
 * of their own (cgroup.ts), every file it writes under RLIMIT_FSIZE, no core dumps. Its scratch
 * folder is a size-capped tmpfs inside bubblewrap (bwrap-args.ts, the cli adapter), so nothing it
 * writes reaches the host's disk. Without cgroups here, RLIMIT_AS and RLIMIT_NPROC stand in (per
 * process and per uid: weaker, and RLIMIT_NPROC does not bind root).
 */
import { type Box, oneOffBoxName, openBox } from './cgroup.ts'
import { findExecutable } from './host-tools.ts'

export type CallLimits = {
  /** Memory of all its processes together, MiB. */
  memoryMb: number
  /** Processes (threads included) at once. */
  processes: number
  /** Largest file it may write, and the size of its scratch folder, MiB. */
  scratchMb: number
}

export const DEFAULT_CALL_LIMITS: CallLimits = { memoryMb: 512, processes: 64, scratchMb: 64 }

const MiB = 1024 * 1024

export type LimitedCall = {
  /** argv to put in front of the command (joins the box, then prlimit). */
  prefix: string[]
  boxed: boolean
  release(): Promise<void>
}

/**
 * Opens the call's box and builds its prlimit line. `memory: 'data'` limits RLIMIT_DATA instead of
 * RLIMIT_AS in the fallback (node reserves far more address space than it uses).
 */
export async function limitCall(
  kind: string,
  limits: CallLimits,
  memory: 'as' | 'data' = 'as',
): Promise<LimitedCall> {
  // The box holds the scratch tmpfs too, so it gets room for a full one on top of the memory.
  const box: Box | undefined = await openBox(oneOffBoxName(kind), {
    processes: limits.processes,
    memoryBytes: (limits.memoryMb + limits.scratchMb) * MiB,
  })
  const prlimit = findExecutable('prlimit')
  const args = prlimit ? [prlimit, `--fsize=${limits.scratchMb * MiB}`, '--core=0'] : []
  if (prlimit && !box) args.push(`--${memory}=${limits.memoryMb * MiB}`, `--nproc=${limits.processes}`)
  return {
    prefix: [...(box?.prefix ?? []), ...(prlimit ? [...args, '--'] : [])],
    boxed: Boolean(box),
    release: async () => box?.release(),
  }
}
