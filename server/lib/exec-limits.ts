/**
 * The limits of one command in an environment, as a definition (or an org's defaults, Settings →
 * Agent) writes them: each bounded so that no setting can grant itself the whole machine. Here in
 * lib because both the org settings (accounts) and the environments domain read them.
 */
import { z } from 'zod'

export const LIMIT_FIELDS = {
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(3600)
    .describe('Wall-clock limit per command (a caller may ask for less, never more)'),
  cpuSeconds: z.number().int().min(1).max(3600).describe('CPU-time limit per command (RLIMIT_CPU)'),
  memoryMb: z
    .number()
    .int()
    .min(256)
    .max(16384)
    .describe(
      'Memory of all its processes together (the environment’s cgroup; RLIMIT_AS per process without cgroups)',
    ),
  processes: z
    .number()
    .int()
    .min(8)
    .max(4096)
    .describe('Processes (threads included) the environment may have at once'),
  diskMb: z.number().int().min(1).max(102400).describe('Disk quota of the environment folder'),
  outputKb: z.number().int().min(1).max(10240).describe('Output kept per stream; the middle is cut'),
}

/** Limits as a definition writes them: any subset, each within its maximum. */
export const ExecLimitsInput = z.strictObject({
  timeoutSeconds: LIMIT_FIELDS.timeoutSeconds.optional(),
  cpuSeconds: LIMIT_FIELDS.cpuSeconds.optional(),
  memoryMb: LIMIT_FIELDS.memoryMb.optional(),
  processes: LIMIT_FIELDS.processes.optional(),
  diskMb: LIMIT_FIELDS.diskMb.optional(),
  outputKb: LIMIT_FIELDS.outputKb.optional(),
})
