/**
 * Runs one command line in an environment's folder, isolated (mechanism.ts), seeing only its folder,
 * the system tools and a private /tmp (sandbox-view.ts), as an unprivileged uid, with a clean env
 * (PATH, HOME inside the folder, LANG, plus the environment's secrets: handed to bwrap on a pipe,
 * never in the environment of the host programs that start the sandbox), in the environment's box
 * (a cgroup capping its processes and their memory together, server/sandbox/cgroup.ts) under CPU
 * and file-size limits and a wall-clock timeout no caller can raise. Returns the full output of
 * each stream (the middle cut with a visible marker past the cap), redacted of secret values.
 * The policy decision (policy.ts) is the caller's job; this module only executes.
 */
import { spawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { newId } from '../../lib/ids.ts'
import { HttpError } from '../../lib/errors.ts'
import {
  commandTimeout,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_LIMITS,
  type ExecEnvironment,
  type ExecResult,
} from './exec-schema.ts'
import { limitInEnvironment, MiB } from './environment-limits.ts'
import { currentMechanism, type Mechanism } from './mechanism.ts'
import { OutputCollector } from './output.ts'
import { collectChecks } from '../policy/policy-walk.ts'
import { currentUsage, diskBlocks, measureUsage, overQuota } from '../files/quota.ts'
import { formatBytes } from '../../lib/text.ts'
import { stoppedForDiskNote, watchDiskUse, type DiskStop } from '../files/disk-watch.ts'
import { heldFilesCounter } from '../files/held-files.ts'
import { sandboxIdentity } from './identity.ts'
import { makeRedactor } from '../../lib/redact.ts'
import { wrapCommand } from './sandbox-runtime.ts'
import { viewArgs } from './sandbox-view.ts'

export * from './exec-schema.ts'

const PATH = '/usr/local/bin:/usr/bin:/bin'

export type ExecOptions = {
  /** The caller's wish; never more than the environment's `timeoutSeconds`. */
  timeoutSeconds?: number
  /** Paths to mask even inside a bound system folder; the server's own by default (sandbox-view.ts). */
  hidden?: string[]
  /** Tests inject a mechanism; otherwise the one detected for this process. */
  mechanism?: Mechanism
  /**
   * Called when the command starts with a reader of its latest output (stdout then stderr, redacted,
   * at most `chars` characters): setup's live progress reads it while the command runs.
   */
  onOutput?: (latest: (chars: number) => string) => void
  /** Aborting kills the command's whole process tree (a cancelled run, a stopped turn). */
  signal?: AbortSignal
  /**
   * A long-running program (a harness CLI) rather than one command line: host paths it needs bound
   * read-only at the same path (its install folder, the folder of its endpoint socket), plain
   * variables beside the environment's secrets (never a secret of the server's), each chunk of
   * output as it comes, and a signal that kills its whole process tree.
   */
  program?: {
    readOnly: string[]
    env: Record<string, string>
    onChunk?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void
    signal?: AbortSignal
  }
}

/** `live` with `signal` aborting it too. */
function withSignal(live: ExecOptions['program'], signal: AbortSignal | undefined) {
  if (!signal) return live
  return { ...live, signal: live?.signal ? AbortSignal.any([live.signal, signal]) : signal }
}

/** Runs `command` in `env.root`. @throws HttpError 503 when no sandbox exists, 507 when over quota. */
export async function runCommand(
  env: ExecEnvironment,
  command: string,
  opts: ExecOptions = {},
): Promise<ExecResult> {
  const mechanism = opts.mechanism ?? (await currentMechanism())
  if (mechanism.kind === 'none')
    throw new HttpError(503, 'unavailable', `execution is unavailable on this server: ${mechanism.why}`)
  const limits = { ...DEFAULT_LIMITS, ...env.limits }
  const diskLimit = limits.diskMb * 1024 * 1024
  const startedWith = await assertRoomFor(env.root, command, diskLimit, env.quotaNote)

  const id = newId('cmd')
  const bounds = await limitInEnvironment(env.root, limits)
  let release = () => {}
  let refusals = (): string[] => []
  try {
    const view = {
      root: env.root,
      tmpBytes: limits.memoryMb * MiB,
      hidden: opts.hidden,
      readOnly: opts.program?.readOnly,
    }
    let inner: string[]
    // A program reaches its endpoint over a bound Unix socket, which sandbox-runtime's seccomp filter
    // refuses; it runs in the bubblewrap view (no network but that socket). Decision 0302.
    if (mechanism.kind === 'sandbox-runtime' && !opts.program) {
      const allowedHosts = env.allowedHosts ?? DEFAULT_ALLOWED_HOSTS
      const wrapped = await wrapCommand({ id, command, root: env.root, allowedHosts })
      release = wrapped.release
      refusals = wrapped.refusals
      inner = [...viewArgs({ ...view, ...wrapped.view }), '--', '/bin/bash', '-c', wrapped.line]
    } else {
      inner = [...viewArgs(view), '--', '/bin/bash', '-c', command]
    }
    const argv = [...bounds.prefix, 'bwrap', '--args', String(ARGS_FD), ...inner]
    const commandVars = setenvArgs({
      PATH,
      HOME: env.root,
      LANG: 'C.UTF-8',
      ...opts.program?.env,
      ...env.secrets,
    })
    const redact = makeRedactor(Object.values(env.secrets ?? {}))
    const overDisk = new AbortController()
    const group = bounds.group
    const disk = watchDiskUse(env.root, diskLimit, () => overDisk.abort(), {
      orgDisk: env.orgDisk,
      startedWith,
      // Without a box (a server not root) there is no group to read: decision 0516.
      ...(group ? { held: heldFilesCounter(env.root, sandboxIdentity().uid, async () => group) } : {}),
    })
    const run = await spawnCollect(
      argv,
      env.root,
      LAUNCHER_ENV,
      commandTimeout(limits, opts.timeoutSeconds),
      limits.outputKb,
      undefined,
      opts.onOutput &&
        ((out) => opts.onOutput!((chars) => latestOutput(out.stdout, out.stderr, chars, redact))),
      {
        ...withSignal(
          opts.program,
          opts.signal ? AbortSignal.any([opts.signal, overDisk.signal]) : overDisk.signal,
        ),
        argsPipe: commandVars,
      },
    ).finally(disk.end)
    return await resultOf(run, {
      root: env.root,
      redact,
      diskLimit,
      stoppedForDisk: disk.stopped(),
      mechanism: opts.program ? 'bwrap' : mechanism.kind,
      networkBlocked: refusals(),
    })
  } finally {
    release()
    await bounds.release()
  }
}

/**
 * The environment of the host programs that start a command's sandbox (the box's `sh`, setpriv,
 * prlimit, bwrap), run as this server's user, root included: nothing a tenant chose. The command's
 * own variables, its secrets among them, reach bwrap on a pipe instead (decision 0501): in these
 * programs' environment a secret named like a variable one of them reads steered it (a name rule
 * listed the C library's, decision 0423, but util-linux's LIBSMARTCOLS_DEBUG made prlimit print, and
 * a host whose /bin/sh is bash, run by a server that is not root, runs PS4's substitutions under
 * SHELLOPTS=xtrace), and no list of names can be complete.
 */
const LAUNCHER_ENV = { PATH, LANG: 'C.UTF-8' }

/** The descriptor bwrap reads its further arguments from (`--args`): the child's first after stdio. */
const ARGS_FD = 3

/**
 * bwrap arguments that give the sandboxed command exactly `vars`: `--clearenv`, then one
 * `--setenv NAME VALUE` each, NUL-separated as `--args` reads them.
 */
function setenvArgs(vars: Record<string, string>): Buffer {
  const parts = ['--clearenv', ...Object.entries(vars).flatMap(([name, value]) => ['--setenv', name, value])]
  return Buffer.from(parts.map((part) => `${part}\0`).join(''))
}

/** A finished command as the tools answer it: redacted output, timeout and quota notes, disk use. */
export async function resultOf(
  run: Collected,
  how: {
    root: string
    redact: (text: string) => string
    diskLimit: number
    /** Why the disk watch stopped the command (disk-watch.ts), else null. */
    stoppedForDisk?: DiskStop | null
    mechanism: ExecResult['mechanism']
    /** Connections the sandbox's network proxy refused to the command ("host:port"). */
    networkBlocked?: string[]
  },
): Promise<ExecResult> {
  const { diskLimit } = how
  const usedAfter = await measureUsage(how.root)
  const overQuotaNow = usedAfter > diskLimit
  const stdout = run.stdout.text(how.redact)
  const stderr = run.stderr.text(how.redact)
  let stderrText = stderr.text
  if (run.timedOut) stderrText += `\n[killed: the command ran longer than ${run.timeoutSeconds} s]`
  const stop = how.stoppedForDisk
  if (stop) {
    stderrText += `\n${stoppedForDiskNote(stop)}`
  }
  if (overQuotaNow) {
    stderrText += `\n[the environment is now over its disk quota (${formatBytes(usedAfter)} of ${formatBytes(diskLimit)}): further writes are refused until files are deleted]`
  }
  return {
    stdout: stdout.text,
    stderr: stderrText,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    bytesOut: run.stdout.total + run.stderr.total,
    truncated: { stdout: stdout.truncated, stderr: stderr.truncated },
    mechanism: how.mechanism,
    disk: { usedBytes: usedAfter, limitBytes: diskLimit, overQuota: overQuotaNow },
    ...(how.networkBlocked?.length ? { networkBlocked: how.networkBlocked.map(how.redact) } : {}),
  }
}

/** The end of both streams so far, joined as a finished step's tail is (stdout, then stderr). */
function latestOutput(
  stdout: OutputCollector,
  stderr: OutputCollector,
  chars: number,
  redact: (text: string) => string,
) {
  return [stdout.latest(chars, redact), stderr.latest(chars, redact)].filter(Boolean).join('\n').slice(-chars)
}

/**
 * Over its disk quota, an environment runs only commands that free space. `note` says why the
 * quota is what it is, when it is not its own (org-disk.ts). @throws 507 otherwise.
 *
 * Answers what the command's disk watch lets it keep: nothing beyond the quota for a command
 * started under it, and for a cleanup started over it, the blocks the folder takes now (the watch
 * measures blocks). Not the known usage, which counts a sparse file's apparent size: `truncate -s`
 * (a cleanup) made a 4 MiB environment "hold" 240 MiB in no blocks, and a cleanup after it wrote
 * 160 MiB of real data unstopped (an outside review).
 */
export async function assertRoomFor(root: string, command: string, diskLimit: number, note?: string) {
  const used = await currentUsage(root)
  if (used < diskLimit) return 0
  if (!isCleanupOnly(command)) throw overQuota(used, diskLimit, note)
  return (await diskBlocks(root)) ?? 0
}

const CLEANUP = new Set(['rm', 'rmdir', 'unlink', 'truncate', 'ls', 'du', 'df', 'find'])
/** Over quota, only commands that free space (or look at it) still run, and none writing a file. */
function isCleanupOnly(command: string): boolean {
  try {
    return collectChecks(command).every(
      (check) => CLEANUP.has(check.command.split(' ')[0] ?? '') && !check.writes,
    )
  } catch {
    return false
  }
}

export type Collected = {
  stdout: OutputCollector
  stderr: OutputCollector
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  durationMs: number
  timeoutSeconds: number
}

/**
 * Runs argv (its own process group), collecting capped output; `onTimeout` also runs at the
 * deadline, `onStart` gets the collectors as they fill (for live progress).
 */
export function spawnCollect(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutSeconds: number,
  outputKb: number,
  onTimeout?: () => void,
  onStart?: (out: { stdout: OutputCollector; stderr: OutputCollector }) => void,
  live?: {
    onChunk?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void
    /** Aborting kills the process group (bwrap's death takes its whole PID namespace with it). */
    signal?: AbortSignal
    /** Written to the child's descriptor 3 and closed (bwrap's `--args`). */
    argsPipe?: Buffer
  },
): Promise<Collected> {
  const started = performance.now()
  const stdout = new OutputCollector(outputKb * 1024)
  const stderr = new OutputCollector(outputKb * 1024)
  onStart?.({ stdout, stderr })
  return new Promise((resolvePromise, reject) => {
    // detached: the command leads its own process group, so a timeout kills all of it.
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env,
      detached: true,
      // Descriptor 3 is bwrap's arguments when there are any, else not opened at all.
      stdio: ['ignore', 'pipe', 'pipe', live?.argsPipe ? 'pipe' : 'ignore'],
    })
    const childOut = child.stdio[1] as Readable
    const childErr = child.stdio[2] as Readable
    const argsPipe = child.stdio[3] as Writable | null
    if (argsPipe && live?.argsPipe) {
      // A child that dies before reading it (killed at once) closes it: not an error of ours.
      argsPipe.on('error', () => {})
      argsPipe.end(live.argsPipe)
    }
    let timedOut = false
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
      onTimeout?.()
    }, timeoutSeconds * 1000)
    childOut.on('data', (chunk: Buffer) => {
      stdout.push(chunk)
      live?.onChunk?.('stdout', chunk)
    })
    childErr.on('data', (chunk: Buffer) => {
      stderr.push(chunk)
      live?.onChunk?.('stderr', chunk)
    })
    const signal = live?.signal
    if (signal?.aborted) killGroup()
    signal?.addEventListener('abort', killGroup, { once: true })
    child.on('error', (err) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', killGroup)
      reject(err)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      live?.signal?.removeEventListener('abort', killGroup)
      killGroup() // anything the command left running in the background
      const durationMs = Math.round(performance.now() - started)
      resolvePromise({ stdout, stderr, exitCode: code, signal, timedOut, durationMs, timeoutSeconds })
    })
  })
}
