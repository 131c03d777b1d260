/**
 * What a command in an environment may use. Declared per environment (its definition's `limits`),
 * bounded by these maximums so a definition cannot grant itself the machine.
 */
import { z } from 'zod'
import { LIMIT_FIELDS } from '../../lib/exec-limits.ts'
import type { OrgDiskShare } from '../files/disk-watch.ts'

export { ExecLimitsInput } from '../../lib/exec-limits.ts'

export const ExecLimits = z.strictObject({
  timeoutSeconds: LIMIT_FIELDS.timeoutSeconds.default(120),
  cpuSeconds: LIMIT_FIELDS.cpuSeconds.default(120),
  memoryMb: LIMIT_FIELDS.memoryMb.default(2048),
  processes: LIMIT_FIELDS.processes.default(256),
  diskMb: LIMIT_FIELDS.diskMb.default(1024),
  outputKb: LIMIT_FIELDS.outputKb.default(256),
})
export type ExecLimits = z.infer<typeof ExecLimits>
export const DEFAULT_LIMITS: ExecLimits = ExecLimits.parse({})

/** A caller's timeout, never above the environment's own (a caller cannot buy more time). */
export const commandTimeout = (limits: Pick<ExecLimits, 'timeoutSeconds'>, requested?: number) =>
  Math.min(requested ?? limits.timeoutSeconds, limits.timeoutSeconds)

/** Hosts commands may reach when the policy names none: the npm and PyPI registries. */
export const DEFAULT_ALLOWED_HOSTS = ['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org']

/** One environment as the executor sees it. */
export type ExecEnvironment = {
  /** The environment's folder (absolute). */
  root: string
  /** Secret values injected into the command env, by variable name. */
  secrets?: Record<string, string>
  /** Hosts the command may reach (sandbox-runtime only; the bwrap fallback has no network). */
  allowedHosts?: string[]
  limits?: Partial<ExecLimits>
  /** Said after a refusal over the disk quota: why the quota is what it is (org-disk.ts). */
  quotaNote?: string
  /** Where a running command's folder size is shared with its organisation's other environments. */
  orgDisk?: OrgDiskShare
}

export type ExecResult = {
  stdout: string
  stderr: string
  /** null when the command was killed (timeout, CPU limit). */
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  durationMs: number
  /** Bytes the command wrote to stdout + stderr, before any cut. */
  bytesOut: number
  truncated: { stdout: boolean; stderr: boolean }
  mechanism: 'sandbox-runtime' | 'bwrap' | 'machine' | 'docker'
  disk: { usedBytes: number; limitBytes: number; overQuota: boolean }
  /**
   * Connections the sandbox refused because their host is not in the allowlist ("host:port"),
   * absent when none was. The command may still exit 0 (curl prints the proxy's refusal page).
   */
  networkBlocked?: string[]
}
