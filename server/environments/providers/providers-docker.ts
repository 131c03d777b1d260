/**
 * `provider: docker`: an environment whose commands run in a throwaway container on this server,
 * through the `docker` CLI with the run-code Docker adapter's container flags (containerRunArgs in
 * server/sandbox/docker.ts). Its folder is the same folder on this instance (bind-mounted at
 * /workspace), so the file tools are the local ones; only `exec` differs. The container never
 * gets a Docker network (`--network none`): Docker's bridge cannot filter by host name, so it would
 * reach the intranet, this host (docker0) and the cloud's metadata service. When the policy names
 * hosts, the command reaches exactly those through the same filtering proxy local commands use: its
 * Unix socket is bind-mounted in and a relay inside the container (docker-relay.ts) listens on
 * loopback for the tools' HTTP_PROXY (decision 0286). A read-only root, no capabilities, the
 * sandbox uid, and the definition's limits as --memory/--pids-limit/ulimits. Secret values (and the
 * proxy's credential) travel in the CLI's environment; only their names are on the command line,
 * and none may be a name the CLI itself reads (DOCKER_HOST and the like: definition/docker-cli-env.ts).
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { env as appEnv } from '../../env.ts'
import { HttpError } from '../../lib/errors.ts'
import { containerRunArgs, dockerClientEnv, REAP_GRACE_MS } from '../../sandbox/docker.ts'
import { assertNoDockerCliSecrets } from '../definition/docker-cli-env.ts'
import {
  commandTimeout,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_LIMITS,
  type ExecEnvironment,
  type ExecLimits,
  type ExecResult,
} from '../exec/exec-schema.ts'
import { assertRoomFor, resultOf, spawnCollect, type ExecOptions } from '../exec/exec.ts'
import { watchDiskUse } from '../files/disk-watch.ts'
import { heldFilesCounter } from '../files/held-files.ts'
import { containerGroup } from './docker-processes.ts'
import { sandboxIdentity } from '../exec/identity.ts'
import { makeRedactor } from '../../lib/redact.ts'
import { leaseProxy, type ProxyLease } from '../exec/sandbox-runtime.ts'
import { logger } from '../../lib/logger.ts'
import { newId } from '../../lib/ids.ts'
import {
  PROXY_ROUTE,
  PROXY_SOCKET,
  RELAY_DIR,
  RELAY_PORT,
  relayed,
  relayFolder,
  type RelayRoute,
} from './docker-relay.ts'

export const DOCKER_WORKDIR = '/workspace'
const LANG = 'C.UTF-8'

/**
 * A long-running program in the container rather than one shell line (a harness CLI,
 * harness/launch-docker.ts): host folders it needs read-only, host Unix sockets relayed to ports of
 * the container's loopback, and its plain variables.
 */
export type ContainerProgram = {
  argv: string[]
  /** Host folders mounted read-only at `target`. */
  readOnly: { source: string; target: string }[]
  /** Host Unix sockets mounted at `target`, each relayed from 127.0.0.1:`port` inside. */
  sockets: { source: string; target: string; port: number }[]
  /**
   * Plain variables (never a secret of the server's). Paths are set on the command line; the rest
   * go by name, their values in the CLI's environment, like secrets.
   */
  env: Record<string, string>
}

/** Variables a program's projection sets that the docker CLI itself reads: given as `NAME=value`. */
const LITERAL_ENV = new Set(['HOME', 'TMPDIR', 'PATH'])

export type DockerExecSpec = {
  name: string
  image: string
  /** The environment's folder on this server. */
  root: string
  /** A shell line (run by bash), or a program (its argv run as is). */
  command: string | (Omit<ContainerProgram, 'env'> & { envNames: string[]; literalEnv: string[] })
  limits: ExecLimits
  /** Names of the secrets the command gets (values go in the CLI's environment, never here). */
  secretNames: string[]
  user: { uid: number; gid: number }
  /**
   * The filtering proxy, when the policy names hosts: its socket on this host and the names of the
   * proxy variables (values in the CLI's environment: they hold its credential).
   */
  proxy?: { socket: string; envNames: string[] }
  /** The relay's host folder (docker-relay.ts), needed when anything is relayed. */
  relayDir?: string
  /** When the container must be gone (see ContainerSpec). */
  deadline: Date
}

/** The exact `docker` argument list for one command. Pure, so a test can pin it. */
export function dockerExecArgs(spec: DockerExecSpec): string[] {
  const { limits, proxy, command } = spec
  const program = typeof command === 'string' ? undefined : command
  const sockets: string[] = []
  const routes: RelayRoute[] = []
  if (proxy) {
    sockets.push(`type=bind,source=${proxy.socket},target=${PROXY_SOCKET}`)
    routes.push(PROXY_ROUTE)
  }
  for (const socket of program?.sockets ?? []) {
    sockets.push(`type=bind,source=${socket.source},target=${socket.target}`)
    routes.push({ port: socket.port, socket: socket.target })
  }
  if (routes.length && !spec.relayDir) throw new Error('dockerExecArgs: a relayed socket needs relayDir')
  const mounts = [
    `type=bind,source=${spec.root},target=${DOCKER_WORKDIR}`,
    ...(routes.length ? [`type=bind,source=${spec.relayDir},target=${RELAY_DIR},readonly`] : []),
    ...sockets,
    ...(program?.readOnly ?? []).map((f) => `type=bind,source=${f.source},target=${f.target},readonly`),
  ]
  const args = containerRunArgs({
    name: spec.name,
    network: 'none',
    mounts,
    user: `${spec.user.uid}:${spec.user.gid}`,
    memory: `${limits.memoryMb}m`,
    cpus: '1',
    pidsLimit: limits.processes,
    ulimits: [`cpu=${limits.cpuSeconds}`, `fsize=${limits.diskMb * 1024 * 1024}`],
    workdir: DOCKER_WORKDIR,
    deadline: spec.deadline,
  })
  const literal = program?.literalEnv ?? []
  if (!literal.some((v) => v.startsWith('HOME='))) args.push('--env', `HOME=${DOCKER_WORKDIR}`)
  args.push('--env', `LANG=${LANG}`)
  for (const value of literal) args.push('--env', value)
  const names = [...(proxy?.envNames ?? []), ...(program?.envNames ?? []), ...spec.secretNames]
  for (const name of names) args.push('--env', name)
  const argv = program ? program.argv : ['/bin/bash', '-c', command as string]
  args.push(spec.image, ...(routes.length ? relayed(argv, routes) : argv))
  return args
}

export type DockerState = { ok: true } | { ok: false; why: string }

/**
 * How long an engine's "no" stands before `docker info` is asked again: an engine started after
 * the server (a boot that starts Docker later, an engine restarted) is found without restarting
 * the server, and a server without one asks at most this often. A "yes" stands.
 */
export const DOCKER_RETRY_MS = 10_000

const known = new Map<string, { answer: Promise<DockerState>; failedAt?: number }>()

/** Whether a Docker engine answers (`docker info`) through `bin`: asked once, and again after a no. */
export function dockerState(bin = 'docker', now = Date.now()): Promise<DockerState> {
  const last = known.get(bin)
  if (last && (last.failedAt === undefined || now - last.failedAt < DOCKER_RETRY_MS)) return last.answer
  const entry: { answer: Promise<DockerState>; failedAt?: number } = {
    // Counted as a no from the moment it is asked: a second caller meanwhile shares this answer.
    failedAt: now,
    answer: new Promise<DockerState>((resolve) => {
      execFile(
        bin,
        ['info', '--format', '{{.ServerVersion}}'],
        { env: dockerClientEnv(), timeout: 10_000 },
        (err, _out, stderr) => {
          if (!err) {
            entry.failedAt = undefined
            return resolve({ ok: true })
          }
          const detail = String(stderr).trim().split('\n').pop() || err.message
          resolve({ ok: false, why: detail })
        },
      )
    }),
  }
  known.set(bin, entry)
  return entry.answer
}

export const dockerUnavailable = (why: string) =>
  new HttpError(503, 'unavailable', `docker is unavailable on this server: ${why}`)

const running = new Map<string, Set<string>>()

/** How long a stopped program's docker CLI may wait for its container to die before it is killed too. */
const STOP_GRACE_MS = 3_000
/** How often a stop kills its container again while the container's command still runs. */
const STOP_AGAIN_MS = 500

/** Whether the container `name` is one a command here still runs (its CLI has not ended). */
const stillRunning = (name: string) => [...running.values()].some((names) => names.has(name))

export type DockerExecOptions = ExecOptions & {
  stopKey: string
  bin?: string
  image?: string
  /**
   * A program (a harness CLI) instead of `command`, with the container's name (so its launcher can
   * remove it), each chunk of output as it comes, and a signal that kills the container.
   */
  container?: ContainerProgram & {
    name: string
    onChunk?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void
    signal?: AbortSignal
  }
}

/** Runs `command` in a container over `env.root`. @throws 503 when no Docker engine answers, 507 when over quota. */
export async function dockerExec(
  env: ExecEnvironment,
  command: string,
  opts: DockerExecOptions,
): Promise<ExecResult> {
  const bin = opts.bin ?? 'docker'
  const ready = await dockerState(bin)
  if (!ready.ok) throw dockerUnavailable(ready.why)
  const secrets = env.secrets ?? {}
  // Values travel in the CLI's own environment: no secret may be a variable the CLI reads.
  assertNoDockerCliSecrets(secrets)
  const limits = { ...DEFAULT_LIMITS, ...env.limits }
  const program = opts.container
  const startedWith = await assertRoomFor(
    env.root,
    program ? program.argv.join(' ') : command,
    limits.diskMb * 1024 * 1024,
    env.quotaNote,
  )
  const name = program?.name ?? `clockwork-env-${randomBytes(8).toString('hex')}`
  const { uid, gid } = sandboxIdentity()
  const programRelay = program?.sockets.length ? await relayFolder() : undefined
  const network = await networkFor(newId('cmd'), env.allowedHosts ?? DEFAULT_ALLOWED_HOSTS)
  const lease = network.lease
  const plain = Object.entries(program?.env ?? {})
  const byName = Object.fromEntries(plain.filter(([k]) => !LITERAL_ENV.has(k)))
  const args = dockerExecArgs({
    name,
    image: opts.image ?? appEnv().SANDBOX_DOCKER_IMAGE,
    root: env.root,
    command: program
      ? {
          ...program,
          envNames: Object.keys(byName),
          literalEnv: plain.filter(([k]) => LITERAL_ENV.has(k)).map(([k, v]) => `${k}=${v}`),
        }
      : command,
    limits,
    secretNames: Object.keys(secrets),
    user: { uid, gid },
    proxy: lease ? { socket: lease.socket, envNames: Object.keys(lease.env) } : undefined,
    relayDir: network.relayDir ?? programRelay,
    deadline: new Date(Date.now() + commandTimeout(limits, opts.timeoutSeconds) * 1000 + REAP_GRACE_MS),
  })
  const names = running.get(opts.stopKey) ?? new Set()
  running.set(opts.stopKey, names.add(name))
  const kill = () => killContainer(bin, name)
  // A stop kills the container; the CLI then ends as its container does, or is killed after a grace.
  const cli = new AbortController()
  let grace: NodeJS.Timeout | undefined
  const stop = () => {
    killUntilEnded(bin, name)
    grace = setTimeout(() => cli.abort(), STOP_GRACE_MS)
  }
  if (program?.signal?.aborted) stop()
  program?.signal?.addEventListener('abort', stop, { once: true })
  const diskLimit = limits.diskMb * 1024 * 1024
  const disk = watchDiskUse(env.root, diskLimit, stop, {
    orgDisk: env.orgDisk,
    startedWith,
    held: heldFilesCounter(env.root, uid, containerGroup(bin, name)),
  })
  try {
    const run = await spawnCollect(
      [bin, ...args],
      env.root,
      { ...dockerClientEnv(), ...byName, ...lease?.env, ...secrets },
      commandTimeout(limits, opts.timeoutSeconds),
      limits.outputKb,
      kill, // killing the CLI leaves the container running: only the daemon stops it
      undefined,
      { onChunk: program?.onChunk, signal: cli.signal },
    ).finally(disk.end)
    const redact = makeRedactor(Object.values(secrets))
    const result = await resultOf(run, {
      root: env.root,
      redact,
      diskLimit,
      stoppedForDisk: disk.stopped(),
      mechanism: 'docker',
      networkBlocked: lease?.refusals(),
    })
    if (network.why) result.stderr += `\n[no network: ${network.why}]`
    return result
  } finally {
    program?.signal?.removeEventListener('abort', stop)
    clearTimeout(grace)
    lease?.release()
    names.delete(name)
    if (names.size === 0) running.delete(opts.stopKey)
  }
}

/**
 * The proxy lease for a command whose policy names hosts; none (no network at all) when it names
 * none, or, fail-closed, when the proxy cannot start here (then `why` says so in the output).
 */
async function networkFor(
  id: string,
  hosts: string[],
): Promise<{ lease: ProxyLease | null; relayDir?: string; why?: string }> {
  let lease: ProxyLease | null = null
  try {
    lease = await leaseProxy({ id, allowedHosts: hosts, port: RELAY_PORT })
    return { lease, relayDir: lease ? await relayFolder() : undefined }
  } catch (err) {
    lease?.release()
    const why = `the filtering proxy cannot start on this server (${(err as Error).message})`
    logger.warn({ why }, 'environments: a docker command runs without network')
    return { lease: null, why }
  }
}

function killContainer(bin: string, name: string) {
  execFile(bin, ['kill', name], { env: dockerClientEnv() }, () => {})
}

/**
 * Kills `name`'s container, and again every STOP_AGAIN_MS while its command still runs. A stop
 * that came while the engine was still making the container (a departure or a Stop just as a
 * command started, on a loaded machine) found nothing to kill, and the container then ran until
 * its deadline.
 */
function killUntilEnded(bin: string, name: string) {
  killContainer(bin, name)
  const again = setInterval(() => {
    if (stillRunning(name)) killContainer(bin, name)
    else clearInterval(again)
  }, STOP_AGAIN_MS)
  again.unref()
}

/** Kills and removes container `name` if it is still there; resolves when the daemon is done. */
export function removeContainer(name: string, bin = 'docker'): Promise<void> {
  return new Promise((resolve) => {
    execFile(bin, ['rm', '--force', name], { env: dockerClientEnv(), timeout: 30_000 }, () => resolve())
  })
}

/** Kills the containers started under stop keys beginning with `prefix` (a run, or a thread's turns). */
export function stopDocker(prefix: string): number {
  let stopped = 0
  for (const [key, names] of running) {
    if (!key.startsWith(prefix)) continue
    for (const name of names) killUntilEnded('docker', name)
    stopped += names.size
  }
  return stopped
}
