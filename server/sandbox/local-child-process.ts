/**
 * `local`: Node's permission model (fs limited to its scratch folder; no child processes, workers,
 * addons) inside bubblewrap when it works here (no network, cleared env, unprivileged uid, only
 * system dirs read-only plus a size-capped tmpfs scratch folder and the bridge socket), in a box of
 * its own (call-limits.ts: processes, memory, file size). Without bubblewrap the code still runs
 * under the permission model, those limits and a scrubbed env, in a host temp folder, and
 * `describeIsolation()` says the network and local services stay reachable, so nobody mistakes it
 * for more.
 */
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { SandboxAdapter, SandboxIsolation, SandboxRunRequest, SandboxRunResult } from './adapter.ts'
import { BRIDGE_SOCKET_ENV } from './adapter.ts'
import { bwrapArgs, SANDBOX_DIR, SANDBOX_SOCKET } from './bwrap-args.ts'
import { DEFAULT_CALL_LIMITS, limitCall } from './call-limits.ts'
import { cgroupSupport } from './cgroup.ts'
import { findExecutable, permissionFlag, usableBwrap } from './host-tools.ts'
import { runProcess } from './process.ts'

export type LocalChildProcessOptions = {
  /** `auto` (default) uses bwrap when it works here; `off` never does (tests, benchmarks). */
  bwrap?: 'auto' | 'off'
  /**
   * Memory limit in MiB, as RLIMIT_DATA (prlimit --data: private writable memory, i.e. heap and
   * buffers). Not RLIMIT_AS: on Node 20 touching `Response`/`Headers`/`fetch` instantiates undici's
   * WebAssembly parser, whose address-space reservation needs more than 8 GiB of RLIMIT_AS.
   */
  memoryLimitMb?: number
  /** Size of the scratch folder and of any file the code writes, MiB (64 by default). */
  scratchMb?: number
  /** Per-stream cap on what is kept of stdout and stderr. */
  outputLimit?: number
  /** The node binary; the server's own by default. */
  nodePath?: string
}

const ENTRY = 'main.mjs'

export class LocalChildProcessAdapter implements SandboxAdapter {
  readonly id = 'local-child-process'

  constructor(private readonly options: LocalChildProcessOptions = {}) {}

  async run(request: SandboxRunRequest): Promise<SandboxRunResult> {
    const dir = await mkdtemp(path.join(tmpdir(), 'clockwork-run-'))
    const limits = {
      ...DEFAULT_CALL_LIMITS,
      memoryMb: this.options.memoryLimitMb ?? 512,
      scratchMb: this.options.scratchMb ?? DEFAULT_CALL_LIMITS.scratchMb,
    }
    const limited = await limitCall('run', limits, 'data')
    try {
      await writeFile(path.join(dir, ENTRY), request.moduleSource, { mode: 0o600 })
      const { command, args, env } = await this.plan(dir, request, limited.prefix, limits.scratchMb)
      return await runProcess(command, args, {
        env,
        cwd: dir,
        timeoutMs: request.timeoutMs,
        outputLimit: this.options.outputLimit,
      })
    } finally {
      await limited.release()
      await rm(dir, { recursive: true, force: true })
    }
  }

  async describeIsolation(): Promise<SandboxIsolation> {
    const bwrap = await this.bwrap()
    const boxes = await cgroupSupport()
    const limits =
      typeof boxes === 'string'
        ? `memory and file-size limits per process (no cgroups: ${boxes})`
        : 'its processes and memory capped together in a cgroup of its own, file-size limit'
    if (bwrap) {
      return {
        adapter: this.id,
        level: 'strong',
        summary:
          'bubblewrap + Node permission model: no network, no host files but system dirs read-only, ' +
          `writes only in a ${this.options.scratchMb ?? DEFAULT_CALL_LIMITS.scratchMb} MiB in-memory scratch dir, ` +
          `no child processes, cleared env, ${limits}.`,
      }
    }
    return {
      adapter: this.id,
      level: 'reduced',
      summary:
        'Node permission model only (bubblewrap not found or not usable): files and child processes are ' +
        'blocked, but the network and services on 127.0.0.1 (the database too) stay reachable' +
        (process.getuid?.() === 0
          ? '.'
          : ', and the code runs as the server user (it could signal the server).'),
    }
  }

  private async bwrap(): Promise<string | null> {
    return this.options.bwrap === 'off' ? null : usableBwrap()
  }

  /**
   * Without bwrap, a server running as root still hands the code to uid 65534 (setpriv), so it
   * cannot signal the server or read root-only files. A non-root server cannot change uid: the
   * code then runs as the server's own user, which `describeIsolation()` admits.
   */
  private async dropRoot(dir: string, command: string[]): Promise<string[]> {
    const setpriv = findExecutable('setpriv')
    if (process.getuid?.() !== 0 || !setpriv) return command
    await chown(dir, 65534, 65534)
    await chown(path.join(dir, ENTRY), 65534, 65534)
    return [setpriv, '--reuid=65534', '--regid=65534', '--clear-groups', '--no-new-privs', '--', ...command]
  }

  /** The command line for one run: node under its limits, under bwrap when available. */
  private async plan(dir: string, request: SandboxRunRequest, limits: string[], scratchMb: number) {
    const memoryMb = this.options.memoryLimitMb ?? 512
    const nodePath = this.options.nodePath ?? process.execPath
    const bwrap = await this.bwrap()
    const inside = bwrap ? SANDBOX_DIR : dir
    const nodeArgs = [
      permissionFlag(),
      `--allow-fs-read=${inside}`,
      `--allow-fs-write=${inside}`,
      '--disable-warning=ExperimentalWarning',
      `--max-old-space-size=${Math.max(64, Math.floor(memoryMb / 4))}`,
      path.join(inside, ENTRY),
    ]
    // RLIMIT_DATA always (a refused allocation is an error the code sees, not a kill); the box
    // caps everything together.
    const prlimit = findExecutable('prlimit')
    const node = prlimit
      ? [prlimit, `--data=${memoryMb * 1024 * 1024}`, '--', nodePath, ...nodeArgs]
      : [nodePath, ...nodeArgs]
    const env: Record<string, string> = {
      ...request.env,
      HOME: inside,
      TMPDIR: inside,
      TEMP: inside,
      TMP: inside,
    }
    if (!bwrap) {
      if (request.bridgeSocketPath) env[BRIDGE_SOCKET_ENV] = request.bridgeSocketPath
      const command = [...limits, ...(await this.dropRoot(dir, node))]
      return { command: command[0]!, args: command.slice(1), env }
    }
    if (request.bridgeSocketPath) env[BRIDGE_SOCKET_ENV] = SANDBOX_SOCKET
    const args = bwrapArgs({
      entry: path.join(dir, ENTRY),
      scratchBytes: scratchMb * 1024 * 1024,
      socketPath: request.bridgeSocketPath,
      env,
      nodePath,
      command: node,
    })
    // bwrap itself gets an empty env: --clearenv plus --setenv decide what the code sees.
    const command = [...limits, bwrap, ...args]
    return { command: command[0]!, args: command.slice(1), env: {} }
  }
}
