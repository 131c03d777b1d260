/**
 * A CLI adapter for an installed binary. Arguments go to `execFile` as a list (never a shell), the
 * env is scrubbed, output capped, time limited. Each call runs in a fresh empty scratch dir inside
 * bubblewrap (no network, system dirs read-only, uid 65534): tools like git execute configuration
 * (`git -c alias.x='!…'`, `core.fsmonitor=…`), so an unisolated CLI is arbitrary code on the host.
 * That code is held by the call's limits (call-limits.ts: its processes and their memory in a box
 * of their own, file size) and its scratch dir is a size-capped tmpfs, never the host's disk.
 * Without a usable bubblewrap an adapter is unavailable unless created with `allowUnisolated: true`.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { systemMounts } from '../sandbox/bwrap-args.ts'
import { type CallLimits, DEFAULT_CALL_LIMITS, limitCall } from '../sandbox/call-limits.ts'
import { findExecutable, usableBwrap } from '../sandbox/host-tools.ts'
import { DEFAULT_OUTPUT_LIMIT } from '../sandbox/output.ts'
import type { CliAdapter, CliResult } from './adapter.ts'

export type ShellCliOptions = {
  /** The binary's name, looked up in the system bin dirs. */
  command: string
  description: string
  /** The name the agent uses; the command by default. */
  name?: string
  timeoutMs?: number
  outputLimit?: number
  /** Run on the host when bubblewrap is missing. Only for tools that cannot run code. */
  allowUnisolated?: boolean
  /** Memory, processes and scratch size of one call (call-limits.ts defaults). */
  limits?: Partial<CallLimits>
}

const SCRATCH = '/work'
const BIN_DIRS = ['/usr/local/bin', '/usr/bin', '/bin']

export class ShellCliAdapter implements CliAdapter {
  readonly name: string
  readonly description: string

  constructor(private readonly options: ShellCliOptions) {
    this.name = options.name ?? options.command
    this.description = options.description
  }

  async isAvailable(): Promise<boolean> {
    if (!findExecutable(this.options.command, BIN_DIRS)) return false
    return Boolean(await usableBwrap()) || Boolean(this.options.allowUnisolated)
  }

  async execute(args: string[], input?: string): Promise<CliResult> {
    const binary = findExecutable(this.options.command, BIN_DIRS)
    const bwrap = await usableBwrap()
    if (!binary || (!bwrap && !this.options.allowUnisolated)) {
      return { stdout: '', stderr: `${this.name} is not available on this server`, exitCode: null }
    }
    const limits = { ...DEFAULT_CALL_LIMITS, ...this.options.limits }
    const limited = await limitCall('cli', limits)
    const env = { PATH: BIN_DIRS.join(':'), LANG: 'C.UTF-8', HOME: SCRATCH }
    try {
      if (!bwrap) return await this.unisolated(binary, args, limited.prefix, input)
      const wrapped = [
        ...['--unshare-all', '--die-with-parent', '--new-session', '--clearenv', '--cap-drop', 'ALL'],
        ...['--uid', '65534', '--gid', '65534', ...systemMounts(), '--proc', '/proc', '--dev', '/dev'],
        ...['--size', String(1024 * 1024), '--tmpfs', '/tmp'],
        ...['--size', String(limits.scratchMb * 1024 * 1024), '--tmpfs', SCRATCH, '--chdir', SCRATCH],
        ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
        '--',
        binary,
        ...args,
      ]
      const command = [...limited.prefix, bwrap, ...wrapped]
      return await this.exec(command[0]!, command.slice(1), { env: {}, cwd: '/' }, input)
    } finally {
      await limited.release()
    }
  }

  /** Without bubblewrap (allowUnisolated): a host scratch dir, under the same limits. */
  private async unisolated(binary: string, args: string[], prefix: string[], input?: string) {
    const scratch = await mkdtemp(path.join(tmpdir(), 'clockwork-cli-'))
    try {
      const env = { PATH: BIN_DIRS.join(':'), LANG: 'C.UTF-8', HOME: scratch }
      const command = [...prefix, binary, ...args]
      return await this.exec(command[0]!, command.slice(1), { env, cwd: scratch }, input)
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  }

  private exec(
    file: string,
    args: string[],
    opts: { env: Record<string, string>; cwd: string },
    input?: string,
  ): Promise<CliResult> {
    const limit = this.options.outputLimit ?? DEFAULT_OUTPUT_LIMIT
    return new Promise((resolve) => {
      const child = execFile(
        file,
        args,
        { ...opts, timeout: this.options.timeoutMs ?? 30_000, maxBuffer: limit, encoding: 'buffer' },
        (err, stdout, stderr) => {
          const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: unknown }) | null
          const overflow = e?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
          const mark = (b: Buffer) =>
            b.toString('utf8') + (overflow && b.length >= limit ? '\n… truncated' : '')
          let exitCode: number | null = typeof e?.code === 'number' ? e.code : e ? null : 0
          let errText = mark(stderr)
          if (e?.killed && !overflow) errText += `\n${this.name} was stopped: time limit reached`
          if (e && !e.killed && typeof e.code === 'string' && !overflow) errText += `\n${e.message}`
          if (overflow) exitCode = null
          resolve({ stdout: mark(stdout), stderr: errText.trim() === '' ? '' : errText, exitCode })
        },
      )
      child.stdin?.end(input ?? '')
    })
  }
}
