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
 * proxy's credential) travel in the CLI's environment; only their names are on the command line.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { env as appEnv } from '../../env.ts'
import { HttpError } from '../../lib/errors.ts'
import { containerRunArgs, dockerClientEnv } from '../../sandbox/docker.ts'
import {
  commandTimeout,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_LIMITS,
  type ExecEnvironment,
  type ExecLimits,
  type ExecResult,
} from '../exec/exec-schema.ts'
import { assertRoomFor, resultOf, spawnCollect, type ExecOptions } from '../exec/exec.ts'
import { sandboxIdentity } from '../exec/identity.ts'
import { makeRedactor } from '../exec/redact.ts'
import { leaseProxy, type ProxyLease } from '../exec/sandbox-runtime.ts'
import { logger } from '../../lib/logger.ts'
import { newId } from '../../lib/ids.ts'
import { PROXY_SOCKET, RELAY_DIR, RELAY_PORT, relayed, relayFolder } from './docker-relay.ts'

export const DOCKER_WORKDIR = '/workspace'
const LANG = 'C.UTF-8'

export type DockerExecSpec = {
  name: string
  image: string
  /** The environment's folder on this server. */
  root: string
  command: string
  limits: ExecLimits
  /** Names of the secrets the command gets (values go in the CLI's environment, never here). */
  secretNames: string[]
  user: { uid: number; gid: number }
  /**
   * The filtering proxy, when the policy names hosts: its socket on this host, the relay's folder,
   * and the names of the proxy variables (values in the CLI's environment: they hold its credential).
   */
  proxy?: { socket: string; relayDir: string; envNames: string[] }
}

/** The exact `docker` argument list for one command. Pure, so a test can pin it. */
export function dockerExecArgs(spec: DockerExecSpec): string[] {
  const { limits, proxy } = spec
  const mounts = [`type=bind,source=${spec.root},target=${DOCKER_WORKDIR}`]
  if (proxy) {
    mounts.push(
      `type=bind,source=${proxy.relayDir},target=${RELAY_DIR},readonly`,
      `type=bind,source=${proxy.socket},target=${PROXY_SOCKET}`,
    )
  }
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
  })
  args.push('--env', `HOME=${DOCKER_WORKDIR}`, '--env', `LANG=${LANG}`)
  for (const name of [...(proxy?.envNames ?? []), ...spec.secretNames]) args.push('--env', name)
  const command = ['/bin/bash', '-c', spec.command]
  args.push(spec.image, ...(proxy ? relayed(command) : command))
  return args
}

export type DockerState = { ok: true } | { ok: false; why: string }

let state: Promise<DockerState> | undefined

/** Whether a Docker engine answers (`docker info`), asked once per process. */
export function dockerState(bin = 'docker'): Promise<DockerState> {
  const ask = () =>
    new Promise<DockerState>((resolve) => {
      execFile(
        bin,
        ['info', '--format', '{{.ServerVersion}}'],
        { env: dockerClientEnv(), timeout: 10_000 },
        (err, _out, stderr) => {
          if (!err) return resolve({ ok: true })
          const detail = String(stderr).trim().split('\n').pop() || err.message
          resolve({ ok: false, why: detail })
        },
      )
    })
  if (bin !== 'docker') return ask()
  state ??= ask()
  return state
}

export const dockerUnavailable = (why: string) =>
  new HttpError(503, 'unavailable', `docker is unavailable on this server: ${why}`)

const running = new Map<string, Set<string>>()

/** Runs `command` in a container over `env.root`. @throws 503 when no Docker engine answers, 507 when over quota. */
export async function dockerExec(
  env: ExecEnvironment,
  command: string,
  opts: ExecOptions & { stopKey: string; bin?: string; image?: string },
): Promise<ExecResult> {
  const bin = opts.bin ?? 'docker'
  const ready = await dockerState(bin)
  if (!ready.ok) throw dockerUnavailable(ready.why)
  const limits = { ...DEFAULT_LIMITS, ...env.limits }
  await assertRoomFor(env.root, command, limits.diskMb * 1024 * 1024)
  const secrets = env.secrets ?? {}
  const name = `clockwork-env-${randomBytes(8).toString('hex')}`
  const { uid, gid } = sandboxIdentity()
  const network = await networkFor(newId('cmd'), env.allowedHosts ?? DEFAULT_ALLOWED_HOSTS)
  const lease = network.lease
  const args = dockerExecArgs({
    name,
    image: opts.image ?? appEnv().SANDBOX_DOCKER_IMAGE,
    root: env.root,
    command,
    limits,
    secretNames: Object.keys(secrets),
    user: { uid, gid },
    proxy: lease
      ? { socket: lease.socket, relayDir: network.relayDir, envNames: Object.keys(lease.env) }
      : undefined,
  })
  const names = running.get(opts.stopKey) ?? new Set()
  running.set(opts.stopKey, names.add(name))
  const kill = () => killContainer(bin, name)
  try {
    const run = await spawnCollect(
      [bin, ...args],
      env.root,
      { ...dockerClientEnv(), ...lease?.env, ...secrets },
      commandTimeout(limits, opts.timeoutSeconds),
      limits.outputKb,
      kill, // killing the CLI leaves the container running: only the daemon stops it
    )
    const redact = makeRedactor(Object.values(secrets))
    const result = await resultOf(run, {
      root: env.root,
      redact,
      diskLimit: limits.diskMb * 1024 * 1024,
      mechanism: 'docker',
      networkBlocked: lease?.refusals(),
    })
    if (network.why) result.stderr += `\n[no network: ${network.why}]`
    return result
  } finally {
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
): Promise<{ lease: ProxyLease | null; relayDir: string; why?: string }> {
  let lease: ProxyLease | null = null
  try {
    lease = await leaseProxy({ id, allowedHosts: hosts, port: RELAY_PORT })
    return { lease, relayDir: lease ? await relayFolder() : '' }
  } catch (err) {
    lease?.release()
    const why = `the filtering proxy cannot start on this server (${(err as Error).message})`
    logger.warn({ why }, 'environments: a docker command runs without network')
    return { lease: null, relayDir: '', why }
  }
}

function killContainer(bin: string, name: string) {
  execFile(bin, ['kill', name], { env: dockerClientEnv() }, () => {})
}

/** Kills the containers started under stop keys beginning with `prefix` (a run, or a thread's turns). */
export function stopDocker(prefix: string): number {
  let stopped = 0
  for (const [key, names] of running) {
    if (!key.startsWith(prefix)) continue
    for (const name of names) killContainer('docker', name)
    stopped += names.size
  }
  return stopped
}
