/**
 * `provider: docker`: the container's command line (pure), the definition accepting it, the clear
 * answer when no Docker engine answers, and real container runs when one does (`.ci/run` starts one).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { parseEnvironmentFile } from '../definition/definition.ts'
import { DEFAULT_LIMITS } from '../exec/exec-schema.ts'
import {
  DOCKER_RETRY_MS,
  dockerExec,
  dockerExecArgs,
  dockerState,
  stopDocker,
  type DockerExecSpec,
} from './providers-docker.ts'
import { resolveTarget } from './providers.ts'
import { dockerForTests, TEST_SANDBOX_IMAGE } from '#tests/support/docker.ts'

const SECRET_VALUE = 'docker-secret-value-5521'
const spec: DockerExecSpec = {
  name: 'clockwork-env-1',
  image: 'node:22-slim',
  root: '/srv/environments/env_1',
  command: 'npm test',
  limits: { ...DEFAULT_LIMITS, memoryMb: 768, processes: 32, cpuSeconds: 60, diskMb: 100 },
  secretNames: ['API_TOKEN'],
  user: { uid: 61000, gid: 61000 },
  deadline: new Date('2026-12-04T12:00:00Z'),
}

describe('dockerExecArgs', () => {
  it('pins the isolation flags: folder mounted, no network, limits, user, workdir, secrets by name', () => {
    expect(dockerExecArgs(spec)).toEqual([
      'run',
      '--rm',
      '--name',
      'clockwork-env-1',
      '--init',
      '--label',
      'clockwork.deadline=1796385600',
      '--log-driver',
      'none',
      '--network',
      'none',
      '--read-only',
      '--tmpfs',
      '/tmp:rw,nosuid,nodev,size=64m',
      '--mount',
      'type=bind,source=/srv/environments/env_1,target=/workspace',
      '--user',
      '61000:61000',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--memory',
      '768m',
      '--memory-swap',
      '768m',
      '--cpus',
      '1',
      '--pids-limit',
      '32',
      '--ulimit',
      'core=0',
      '--ulimit',
      'cpu=60',
      '--ulimit',
      `fsize=${100 * 1024 * 1024}`,
      '--workdir',
      '/workspace',
      '--env',
      'HOME=/workspace',
      '--env',
      'LANG=C.UTF-8',
      '--env',
      'API_TOKEN',
      'node:22-slim',
      '/bin/bash',
      '-c',
      'npm test',
    ])
  })

  it('never gets a Docker network (the bridge cannot filter hosts; the proxy is relayed in instead)', () => {
    const args = dockerExecArgs(spec)
    expect(args[args.indexOf('--network') + 1]).toBe('none')
    expect(args).not.toContain('bridge')
  })

  // Host paths as this machine's temp folder holds them.
  const socket = join(tmpdir(), 'claude-http-1.sock')
  const relayDir = join(tmpdir(), 'clockwork-relay-1')
  const endpoint = join(tmpdir(), 'h-1', 'endpoint.sock')

  it('with the proxy: its socket and the relay mounted, the relay in front, its variables by name', () => {
    const args = dockerExecArgs({
      ...spec,
      proxy: { socket, envNames: ['HTTP_PROXY'] },
      relayDir,
    })
    expect(args[args.indexOf('--network') + 1]).toBe('none')
    expect(args).toContain(`type=bind,source=${relayDir},target=/run/clockwork-relay,readonly`)
    expect(args).toContain(`type=bind,source=${socket},target=/run/clockwork-proxy/proxy.sock`)
    expect(args.slice(args.indexOf('node:22-slim'))).toEqual([
      'node:22-slim',
      'node',
      '/run/clockwork-relay/relay.mjs',
      '3128=/run/clockwork-proxy/proxy.sock',
      '--',
      '/bin/bash',
      '-c',
      'npm test',
    ])
    expect(args.join(' ')).toContain('--env HTTP_PROXY --env API_TOKEN')
  })

  it('a program: the relay in front for the proxy and its sockets, its folders read-only, paths set, the rest by name', () => {
    const args = dockerExecArgs({
      ...spec,
      command: {
        argv: ['/opt/cli/claude', '-p', 'do it'],
        readOnly: [{ source: '/srv/harness/claude/bin', target: '/opt/cli' }],
        sockets: [{ source: endpoint, target: '/run/clockwork-endpoint/endpoint.sock', port: 24001 }],
        envNames: ['ANTHROPIC_API_KEY'],
        literalEnv: ['HOME=/workspace/.harness-1/home'],
      },
      proxy: { socket, envNames: ['HTTP_PROXY'] },
      relayDir,
    })
    expect(args[args.indexOf('--network') + 1]).toBe('none')
    expect(args).toContain('type=bind,source=/srv/harness/claude/bin,target=/opt/cli,readonly')
    expect(args).toContain(`type=bind,source=${endpoint},target=/run/clockwork-endpoint/endpoint.sock`)
    expect(args.join(' ')).toContain(
      '--env LANG=C.UTF-8 --env HOME=/workspace/.harness-1/home --env HTTP_PROXY --env ANTHROPIC_API_KEY --env API_TOKEN',
    )
    expect(args).not.toContain('HOME=/workspace')
    expect(args.slice(args.indexOf('node:22-slim'))).toEqual([
      'node:22-slim',
      'node',
      '/run/clockwork-relay/relay.mjs',
      '3128=/run/clockwork-proxy/proxy.sock',
      '24001=/run/clockwork-endpoint/endpoint.sock',
      '--',
      '/opt/cli/claude',
      '-p',
      'do it',
    ])
  })

  it('never carries a secret value', () => {
    expect(dockerExecArgs(spec).join(' ')).not.toContain(SECRET_VALUE)
  })
})

describe('the definition and the provider seam', () => {
  it('accepts provider: docker and resolves it to the docker target', async () => {
    const parsed = parseEnvironmentFile('---\nprovider: docker\n---\nIn a container.\n')
    expect(parsed.provider).toBe('docker')
    const caller = {
      userId: 'u',
      email: 'u@x',
      name: 'U',
      timezone: null,
      orgId: 'o',
      orgName: 'O',
      role: 'member' as const,
    }
    const target = await resolveTarget(caller, {
      name: 'box',
      orgId: 'o',
      provider: 'docker',
      secrets: ['A'],
      machineOwner: 'u',
    })
    expect(target).toEqual({ kind: 'docker' })
  })

  it('refuses a provider it does not know, naming the choices', () => {
    expect(() => parseEnvironmentFile('---\nprovider: podman\n---\nx\n')).toThrow(
      /"local", "docker" or "machine:<id>"/,
    )
  })
})

describe('without a Docker engine', () => {
  it('answers a clear 503 "docker is unavailable on this server: …"', async () => {
    const root = mkdtempSync(join(tmpdir(), 'clockwork-docker-env-'))
    try {
      const run = dockerExec({ root }, 'echo hi', { stopKey: 'run_x', bin: join(root, 'no-docker-here') })
      await expect(run).rejects.toMatchObject({ status: 503, code: 'unavailable' })
      await expect(run).rejects.toThrow(/^docker is unavailable on this server: .+/)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
  it('finds an engine started after the server, asking again at most every DOCKER_RETRY_MS', async () => {
    // The first answer was kept for the life of the process: a server started before its Docker
    // engine (a boot that starts Docker later) refused every Docker command until it was restarted.
    const root = mkdtempSync(join(tmpdir(), 'clockwork-docker-state-'))
    try {
      const engineUp = join(root, 'engine-up')
      const asked = join(root, 'asked')
      const bin = join(root, 'docker')
      writeFileSync(
        bin,
        `#!/bin/sh\necho "$1" >> '${asked}'\n[ -e '${engineUp}' ] && exit 0\n` +
          `echo 'Cannot connect to the Docker daemon' >&2\nexit 1\n`,
        { mode: 0o755 },
      )
      const timesAsked = () => readFileSync(asked, 'utf8').split('\n').filter(Boolean).length
      const t = Date.now()
      expect(await dockerState(bin, t)).toEqual({ ok: false, why: 'Cannot connect to the Docker daemon' })
      writeFileSync(engineUp, '')
      // Within the wait the no stands, without asking.
      expect((await dockerState(bin, t + DOCKER_RETRY_MS - 1)).ok).toBe(false)
      expect(timesAsked()).toBe(1)
      expect(await dockerState(bin, t + DOCKER_RETRY_MS)).toEqual({ ok: true })
      // A yes stands.
      rmSync(engineUp)
      expect(await dockerState(bin, t + 100 * DOCKER_RETRY_MS)).toEqual({ ok: true })
      expect(timesAsked()).toBe(2)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

const docker = await dockerForTests()
const daemon = docker.ok ? ({ ok: true } as const) : await dockerState()
describe('with a Docker engine', () => {
  const root = mkdtempSync(join(tmpdir(), 'clockwork-docker-env-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  // The real CLI, pointed at an engine that cannot answer (a socket that does not exist), so this
  // runs whether or not this machine has an engine.
  it("passes on the real CLI's reason when its engine does not answer", async () => {
    const deadEngine = join(root, 'docker-without-engine')
    writeFileSync(deadEngine, `#!/bin/sh\nDOCKER_HOST=unix://${root}/no-engine.sock exec docker "$@"\n`, {
      mode: 0o755,
    })
    const answer = await dockerState(deadEngine)
    expect(answer.ok).toBe(false)
    const why = answer.ok ? '' : answer.why
    expect(why).not.toBe('')
    const run = dockerExec({ root }, 'echo hi', { stopKey: 'run_y', bin: deadEngine })
    await expect(run).rejects.toThrow(`docker is unavailable on this server: ${why}`)
  })

  it.skipIf(!daemon.ok)(
    `runs a command in the folder with the secret in its env, redacted in the output${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      execFileSync('chmod', ['0777', root])
      const result = await dockerExec(
        { root, secrets: { API_TOKEN: SECRET_VALUE }, allowedHosts: [] },
        'echo "$API_TOKEN" > made.txt; pwd; echo "$API_TOKEN"',
        { stopKey: 'run_docker_real', image: TEST_SANDBOX_IMAGE },
      )
      expect(result).toMatchObject({ exitCode: 0, mechanism: 'docker', stdout: '/workspace\n••••\n' })
      expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe(`${SECRET_VALUE}\n`)
    },
  )

  it.skipIf(!daemon.ok)(
    `over its disk quota, runs only commands that free space, as a local environment${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      const quota = { root, allowedHosts: [], limits: { diskMb: 1 } }
      const opts = { stopKey: 'run_docker_quota', image: TEST_SANDBOX_IMAGE }
      const big = await dockerExec(quota, 'for i in 1 2; do head -c 700000 /dev/zero > big$i.bin; done', opts)
      expect(big.disk.overQuota).toBe(true)
      await expect(dockerExec(quota, 'echo more > more.txt', opts)).rejects.toMatchObject({ status: 507 })
      expect((await dockerExec(quota, 'rm big1.bin big2.bin', opts)).disk.overQuota).toBe(false)
      expect((await dockerExec(quota, 'echo ok', opts)).stdout).toBe('ok\n')
    },
  )

  it.skipIf(!daemon.ok)(
    `a stop sent while the engine is still making the container ends the command${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      // A departure or a Stop just as a command starts: the first kill finds no container yet.
      const opts = { stopKey: 'run_docker_early_stop', image: TEST_SANDBOX_IMAGE, timeoutSeconds: 20 }
      const command = dockerExec({ root, allowedHosts: [] }, 'sleep 60', opts)
      await vi.waitFor(() => expect(stopDocker('run_docker_early_stop')).toBeGreaterThan(0), {
        interval: 5,
        timeout: 20_000,
      })
      const result = await command
      // Unfixed, the container was made after the only kill and slept until the command's timeout.
      expect(result.timedOut).toBe(false)
    },
    60_000,
  )

  it.skipIf(!daemon.ok)(
    `a command writing file after file past its quota is stopped while it runs, as a local one${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      execFileSync('chmod', ['0777', root])
      const quota = { root, allowedHosts: [], limits: { diskMb: 4 } }
      const opts = { stopKey: 'run_docker_filler', image: TEST_SANDBOX_IMAGE }
      // 600 MiB of 3 MiB files, each under the per-file limit, if the container were left to it.
      const filled = await dockerExec(
        quota,
        'for i in $(seq 1 200); do head -c 3145728 /dev/zero > fill$i.bin; sleep 0.1; done; echo finished',
        opts,
      )
      expect(filled.stdout).not.toMatch(/finished/)
      expect(filled.stderr).toMatch(/stopped: the environment went over its disk quota while the command ran/)
      expect(filled.disk.usedBytes).toBeLessThan(200 * 1024 * 1024)
      expect((await dockerExec(quota, 'rm fill*.bin', opts)).disk.overQuota).toBe(false)
    },
    60_000,
  )

  it.skipIf(!daemon.ok)(
    `a container is stopped at the room its organisation's other environments leave it now${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      execFileSync('chmod', ['0777', root])
      // Another environment of the organisation grew while this command ran: 2 MiB of its own 4 left.
      const shared: number[] = []
      const orgDisk = async (usedBytes: number) => {
        shared.push(usedBytes)
        return { roomBytes: 2 * 1024 * 1024, note: 'the others hold the rest' }
      }
      const env = { root, allowedHosts: [], limits: { diskMb: 4 }, orgDisk }
      const opts = { stopKey: 'run_docker_org_share', image: TEST_SANDBOX_IMAGE }
      // 3 MiB in quarter-mebibyte files: within the environment's own quota, past the room left it;
      // a second between files, so the watch (its pace grows with how long a look took) sees it
      // on a loaded machine too.
      const result = await dockerExec(
        env,
        'for i in $(seq 1 12); do head -c 262144 /dev/zero > part$i.bin; sleep 1; done; echo finished',
        opts,
      )
      expect(result.stdout).not.toMatch(/finished/)
      expect(result.stderr).toMatch(/while the command ran \([^)]+ of 2\.0 MiB\)\]\nthe others hold the rest/)
      expect(shared.length).toBeGreaterThan(0)
      await dockerExec({ root, allowedHosts: [] }, 'rm part*.bin', opts)
    },
    60_000,
  )
})
