/**
 * The Docker adapter's command line and timeout, with a fake spawner (no daemon runs here), and a
 * real container run that happens only when `docker info` answers.
 */
import type { ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { dockerForTests, TEST_SANDBOX_IMAGE } from '#tests/support/docker.ts'
import type { SandboxRunRequest } from './adapter.ts'
import { DockerSandboxAdapter, dockerRunArgs, type Spawner } from './docker.ts'
import { runCode } from './run-code.ts'

const request: SandboxRunRequest = {
  moduleSource: 'console.log(1)',
  env: { PATH: '/usr/bin', HOME: '/home/x', TMPDIR: '/tmp', LANG: 'C.UTF-8', TOKEN_LIKE: 'value-9a7' },
  timeoutMs: 1_000,
  bridgePort: 0,
  bridgeSocketPath: join(tmpdir(), 'clockwork-bridge-abc', 'bridge.sock'),
}

describe('dockerRunArgs', () => {
  const args = dockerRunArgs(request, {
    name: 'clockwork-run-1',
    image: 'node:22-slim',
    moduleDir: join(tmpdir(), 'mod'),
    deadline: new Date('2026-12-04T12:00:00Z'),
  })

  it('pins the isolation flags', () => {
    expect(args).toEqual([
      'run',
      '--rm',
      '--name',
      'clockwork-run-1',
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
      `type=bind,source=${join(tmpdir(), 'mod')},target=/sandbox,readonly`,
      '--mount',
      `type=bind,source=${request.bridgeSocketPath},target=/run/agent-native/bridge.sock`,
      '--user',
      '65534:65534',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--memory',
      '512m',
      '--memory-swap',
      '512m',
      '--cpus',
      '1',
      '--pids-limit',
      '64',
      '--ulimit',
      'core=0',
      '--workdir',
      '/tmp',
      '-e',
      'HOME',
      '-e',
      'TMPDIR',
      '-e',
      'LANG',
      '-e',
      'TOKEN_LIKE',
      '-e',
      'TEMP',
      '-e',
      'TMP',
      '-e',
      'AGENT_NATIVE_BRIDGE_SOCKET',
      'node:22-slim',
      'node',
      '/sandbox/main.mjs',
    ])
  })

  it('never asks for privileges, the docker socket, the host network or env values', () => {
    const line = args.join(' ')
    expect(line).not.toMatch(
      /--privileged|docker\.sock|--network[= ]host|--pid[= ]host|--ipc[= ]host|--cap-add/,
    )
    expect(line).not.toContain('value-9a7')
    expect(args).not.toContain('PATH')
  })
})

function fakeSpawner(behaviour: 'hang' | 'exit') {
  const calls: { args: string[]; env: Record<string, string> }[] = []
  const spawner: Spawner = (_command, args, options) => {
    calls.push({ args, env: options.env })
    const child = new EventEmitter() as ChildProcess & EventEmitter
    Object.assign(child, { stdout: new PassThrough(), stderr: new PassThrough(), kill: () => true })
    const finish = (code: number) => {
      ;(child.stdout as PassThrough).end()
      ;(child.stderr as PassThrough).end()
      child.emit('close', code)
    }
    if (args[0] === 'kill') {
      // `docker kill` stops the container; the hanging `docker run` then exits (137).
      const run = running.shift()
      setTimeout(() => {
        finish(0)
        run?.(137)
      }, 10)
    } else if (behaviour === 'exit') {
      setTimeout(() => {
        ;(child.stdout as PassThrough).write('hello\n')
        finish(0)
      }, 10)
    } else running.push(finish)
    return child
  }
  const running: ((code: number) => void)[] = []
  return { spawner, calls }
}

describe('DockerSandboxAdapter with a fake spawner', () => {
  it('passes env values only through the CLI environment', async () => {
    const { spawner, calls } = fakeSpawner('exit')
    const r = await new DockerSandboxAdapter({ spawner, image: 'img' }).run(request)
    expect(r).toEqual({ stdout: 'hello\n', stderr: '', exitCode: 0, timedOut: false })
    expect(calls[0]!.env.TOKEN_LIKE).toBe('value-9a7')
    expect(calls[0]!.args.join(' ')).not.toContain('value-9a7')
  })

  it('on timeout runs `docker kill <name>` and reports timedOut with exitCode null', async () => {
    const { spawner, calls } = fakeSpawner('hang')
    const r = await new DockerSandboxAdapter({ spawner, image: 'img' }).run({ ...request, timeoutMs: 50 })
    expect(r).toMatchObject({ timedOut: true, exitCode: null })
    const name = calls[0]!.args[calls[0]!.args.indexOf('--name') + 1]
    expect(calls[1]!.args).toEqual(['kill', name])
  })
})

const docker = await dockerForTests()

describe.skipIf(!docker.ok)(
  `DockerSandboxAdapter against a real engine${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
  () => {
    it('runs a module with no network and reaches the bridge', async () => {
      const r = await runCode(
        { code: `console.log(await appAction('ping', {}))`, timeoutMs: 60_000 },
        {
          adapter: new DockerSandboxAdapter({ image: TEST_SANDBOX_IMAGE }),
          actions: { ping: async () => 'pong' },
        },
      )
      expect(r).toMatchObject({ stdout: 'pong\n', exitCode: 0 })
    }, 120_000)
  },
)
