/**
 * `docker`: one throwaway container per run, driven through the `docker` CLI (no daemon SDK; the
 * CLI is one binary, dockerode pulls dozens of packages). The container gets no network, a
 * read-only root with a small tmpfs, the module read-only, the bridge socket, no capabilities,
 * an unprivileged user and memory/CPU/pids limits. Env values travel in the CLI's environment and
 * only their names appear on the command line (`-e NAME`), so `ps` never shows them.
 *
 * Bridge: socket, not TCP. `--add-host=host.docker.internal:host-gateway` would reach the host
 * over docker0, but the bridge binds 127.0.0.1 (binding 0.0.0.0 would expose it to the LAN), so
 * it would be refused, and giving the container a network at all re-opens everything else on the
 * host and beyond. A bind-mounted Unix socket keeps `--network none` and reaches exactly one door.
 * The cost: Docker Desktop on macOS cannot share Unix sockets across the VM boundary reliably.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { env } from '../env.ts'
import type { SandboxAdapter, SandboxIsolation, SandboxRunRequest, SandboxRunResult } from './adapter.ts'
import { BRIDGE_SOCKET_ENV } from './adapter.ts'
import { CappedOutput } from './output.ts'
import { KILL_GRACE_MS } from './process.ts'

export const DOCKER_MODULE_DIR = '/sandbox'
export const DOCKER_BRIDGE_SOCKET = '/run/agent-native/bridge.sock'
const ENTRY = 'main.mjs'
// The variables the container gets whatever the request says: its own tmpfs, not host paths.
const CONTAINER_ENV = { HOME: '/tmp', TMPDIR: '/tmp', TEMP: '/tmp', TMP: '/tmp' }

export type DockerRunOptions = {
  name: string
  image: string
  /** Host dir holding the module, mounted read-only. */
  moduleDir: string
  memory?: string
  cpus?: string
  pidsLimit?: number
  deadline: Date
}

/** Names passed with `-e NAME`: the request's env (minus PATH: the image's own) plus fixed ones. */
export function containerEnv(request: SandboxRunRequest): Record<string, string> {
  const { PATH: _hostPath, ...rest } = request.env
  return {
    ...rest,
    ...CONTAINER_ENV,
    ...(request.bridgeSocketPath ? { [BRIDGE_SOCKET_ENV]: DOCKER_BRIDGE_SOCKET } : {}),
  }
}

/**
 * One throwaway container as both Docker users run it (run-code here, `provider: docker`
 * environments in server/environments/providers/providers-docker.ts): an init process, no log kept
 * by the daemon, a read-only root with a small tmpfs, no capabilities, no new privileges, and the
 * given user, network and limits.
 */
export type ContainerSpec = {
  name: string
  /** `none` unless the caller has a reason to open one (environments whose policy names hosts). */
  network: 'none' | 'bridge'
  /** `--mount` values, in order. */
  mounts: string[]
  /** `uid:gid`. */
  user: string
  memory: string
  cpus: string
  pidsLimit: number
  /** `--ulimit` values, in order. */
  ulimits?: string[]
  workdir: string
  /**
   * When the container must be gone, as a label the reaper reads (docker-reaper.ts): its server
   * stops it on time, but a server that dies mid-command leaves it running for ever.
   */
  deadline: Date
}

/** The label holding a container's deadline, in seconds since the epoch. */
export const DEADLINE_LABEL = 'clockwork.deadline'

/** How long past its own time limit a container may live before the reaper takes it. */
export const REAP_GRACE_MS = 60_000

/** `docker run` and the isolation flags of {@link ContainerSpec}; the caller adds env, image and command. */
export function containerRunArgs(spec: ContainerSpec): string[] {
  return [
    'run',
    '--rm',
    '--name',
    spec.name,
    '--init',
    '--label',
    `${DEADLINE_LABEL}=${Math.ceil(spec.deadline.getTime() / 1000)}`,
    // The CLI streams the output to the server, which keeps its cap of it. With the daemon's
    // default json-file log, every byte also went to the host's disk (/var/lib/docker) for as long
    // as the container lived: 50 MB printed was 50 MB there, `yes` gigabytes (decision 0419).
    '--log-driver',
    'none',
    '--network',
    spec.network,
    '--read-only',
    '--tmpfs',
    '/tmp:rw,nosuid,nodev,size=64m',
    ...spec.mounts.flatMap((mount) => ['--mount', mount]),
    '--user',
    spec.user,
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    '--memory',
    spec.memory,
    // Memory and swap together no more than the memory limit: without it Docker allows as much
    // swap again, and a command on a host with swap held twice what its definition says
    // (decision 0429).
    '--memory-swap',
    spec.memory,
    '--cpus',
    spec.cpus,
    '--pids-limit',
    String(spec.pidsLimit),
    // No core dumps, soft or hard, as local commands (`prlimit --core=0`): the kernel's
    // core_pattern is the host's, so a dump went to the host's handler (or the folder) however
    // often a command crashed itself (decision 0419).
    ...['core=0', ...(spec.ulimits ?? [])].flatMap((limit) => ['--ulimit', limit]),
    '--workdir',
    spec.workdir,
  ]
}

/** The exact `docker` argument list for one run. Pure, so a test can pin it. */
export function dockerRunArgs(request: SandboxRunRequest, options: DockerRunOptions): string[] {
  const mounts = [`type=bind,source=${options.moduleDir},target=${DOCKER_MODULE_DIR},readonly`]
  if (request.bridgeSocketPath) {
    mounts.push(`type=bind,source=${request.bridgeSocketPath},target=${DOCKER_BRIDGE_SOCKET}`)
  }
  const args = containerRunArgs({
    name: options.name,
    network: 'none',
    mounts,
    user: '65534:65534',
    memory: options.memory ?? '512m',
    cpus: options.cpus ?? '1',
    pidsLimit: options.pidsLimit ?? 64,
    workdir: '/tmp',
    deadline: options.deadline,
  })
  for (const name of Object.keys(containerEnv(request))) args.push('-e', name)
  args.push(options.image, 'node', `${DOCKER_MODULE_DIR}/${ENTRY}`)
  return args
}

export type Spawner = (
  command: string,
  args: string[],
  options: { env: Record<string, string> },
) => ChildProcess

const realSpawn: Spawner = (command, args, options) =>
  spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })

export type DockerAdapterOptions = {
  image?: string
  spawner?: Spawner
  outputLimit?: number
  memory?: string
  cpus?: string
  pidsLimit?: number
}

export class DockerSandboxAdapter implements SandboxAdapter {
  readonly id = 'docker'

  constructor(private readonly options: DockerAdapterOptions = {}) {}

  async run(request: SandboxRunRequest): Promise<SandboxRunResult> {
    const dir = await mkdtemp(path.join(tmpdir(), 'clockwork-docker-'))
    try {
      // The container runs as 65534 without a user namespace: it must be able to read the module.
      await chmod(dir, 0o755)
      await writeFile(path.join(dir, ENTRY), request.moduleSource, { mode: 0o644 })
      const name = `clockwork-run-${randomBytes(8).toString('hex')}`
      const args = dockerRunArgs(request, {
        name,
        image: this.options.image ?? env().SANDBOX_DOCKER_IMAGE,
        moduleDir: dir,
        memory: this.options.memory,
        cpus: this.options.cpus,
        pidsLimit: this.options.pidsLimit,
        deadline: new Date(Date.now() + request.timeoutMs + REAP_GRACE_MS),
      })
      return await this.spawnRun(args, name, request)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  async describeIsolation(): Promise<SandboxIsolation> {
    return {
      adapter: this.id,
      level: 'strong',
      summary:
        'A throwaway container: no network, read-only root, no capabilities, unprivileged user, ' +
        'memory/CPU/pids limits. Shares the host kernel; needs a Docker daemon.',
    }
  }

  private spawnRun(args: string[], name: string, request: SandboxRunRequest): Promise<SandboxRunResult> {
    const spawner = this.options.spawner ?? realSpawn
    const stdout = new CappedOutput(this.options.outputLimit)
    const stderr = new CappedOutput(this.options.outputLimit)
    // The CLI needs PATH and DOCKER_* from the server; the container only gets the names in `-e`.
    const cliEnv: Record<string, string> = { ...dockerClientEnv(), ...containerEnv(request) }
    return new Promise((resolve, reject) => {
      const child = spawner('docker', args, { env: cliEnv })
      stdout.drain(child.stdout)
      stderr.drain(child.stderr)
      let timedOut = false
      let forceTimer: NodeJS.Timeout | undefined
      const deadline = setTimeout(() => {
        timedOut = true
        // Killing the CLI leaves the container running: only the daemon can stop it.
        spawner('docker', ['kill', name], { env: dockerClientEnv() }).on('error', () => {})
        forceTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS + 3_000)
      }, request.timeoutMs)
      child.on('error', (err) => {
        clearTimeout(deadline)
        clearTimeout(forceTimer)
        reject(err)
      })
      child.on('close', (code) => {
        clearTimeout(deadline)
        clearTimeout(forceTimer)
        resolve({
          stdout: stdout.toString(),
          stderr: stderr.toString(),
          exitCode: timedOut ? null : code,
          timedOut,
        })
      })
    })
  }
}

/** What the docker CLI itself needs from the server's environment (never the app's secrets). */
export function dockerClientEnv(): Record<string, string> {
  const keep = [
    'PATH',
    'DOCKER_HOST',
    'DOCKER_CONFIG',
    'DOCKER_CONTEXT',
    'DOCKER_CERT_PATH',
    'DOCKER_TLS_VERIFY',
  ]
  const out: Record<string, string> = {}
  for (const k of keep) if (process.env[k]) out[k] = process.env[k]!
  return out
}
