/**
 * run-code's `docker` adapter against a real engine, with the local test image: the container has
 * no network but the bridge's socket, a read-only root, an unprivileged user, memory and pids limits,
 * and a timeout kills it; no container outlives its run. CI requires the engine (REQUIRE_DOCKER=1,
 * tests/support/docker.ts); elsewhere the file skips and says why. The agent's tool runs it over
 * real HTTP once, with AGENT_NATIVE_SANDBOX=docker.
 */
import { execFileSync, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DockerSandboxAdapter, type DockerAdapterOptions, type Spawner } from '#server/sandbox/docker.ts'
import { runCode } from '#server/sandbox/run-code.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

const docker = await dockerForTests()
// Each test starts one or two containers: seconds on a quiet machine, far more under CI's four
// workers on two cores. The guard is a hang guard; the run's own timeouts are what is tested.
vi.setConfig({ testTimeout: 60_000 })
const skipped = docker.ok ? '' : ` (skipped: ${docker.why})`

/** The adapter with the real CLI, recording each container's name (to check it is gone after). */
function adapter(options: DockerAdapterOptions = {}) {
  const names: string[] = []
  const spawner: Spawner = (command, args, opts) => {
    if (args[0] === 'run') names.push(args[args.indexOf('--name') + 1]!)
    return spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] })
  }
  return {
    adapter: new DockerSandboxAdapter({ image: docker.ok ? docker.image : '', spawner, ...options }),
    names,
  }
}

const run = (code: string, options: DockerAdapterOptions & { timeoutMs?: number } = {}) => {
  const { timeoutMs = 60_000, ...rest } = options
  const made = adapter(rest)
  const result = runCode(
    { code, timeoutMs },
    { adapter: made.adapter, actions: { ping: async () => 'pong' } },
  )
  return { result, names: made.names }
}

/** Containers (running or not) with these names: none once a run has returned. */
const containers = (names: string[]) =>
  names.length === 0
    ? ''
    : execFileSync(
        'docker',
        ['ps', '-a', '--format', '{{.Names}}', ...names.flatMap((n) => ['--filter', `name=^${n}$`])],
        {
          encoding: 'utf8',
        },
      ).trim()

describe.skipIf(!docker.ok)(`run-code in a Docker container${skipped}`, () => {
  let host: Server
  let connections = 0
  const dockerGateway = () =>
    networkInterfaces().docker0?.find((a) => a.family === 'IPv4')?.address ?? '172.17.0.1'

  beforeAll(async () => {
    // A server on every host address, docker0's included: what a container with a network would reach.
    host = createServer((_req, res) => res.end('reached'))
    host.on('connection', () => connections++)
    await new Promise<void>((resolve) => host.listen(0, '0.0.0.0', resolve))
  })
  afterAll(() => host?.close())

  it('reaches the bridge and nothing else: no interface but loopback, this host refused', async () => {
    const port = (host.address() as { port: number }).port
    const { result, names } = run(`
      import os from 'node:os'
      import net from 'node:net'
      console.log(await appAction('ping', {}))
      console.log(Object.keys(os.networkInterfaces()).join(','))
      const tried = await new Promise((resolve) => {
        const socket = net.connect({ host: '${dockerGateway()}', port: ${port}, timeout: 3000 })
        socket.on('connect', () => resolve('connected'))
        socket.on('error', (error) => resolve(error.code))
        socket.on('timeout', () => resolve('timeout'))
      })
      console.log(tried)
    `)
    const r = await result
    expect(r).toMatchObject({ exitCode: 0, timedOut: false })
    const [ping, interfaces, tried] = r.stdout.trim().split('\n')
    expect(ping).toBe('pong')
    expect(interfaces).toBe('lo')
    expect(tried).toBe('ENETUNREACH')
    expect(connections).toBe(0)
    expect(containers(names)).toBe('')
  })

  it('runs as an unprivileged user on a read-only root with a writable /tmp', async () => {
    // A path inside the container, which mounts a tmpfs of its own there (server/sandbox/docker.ts).
    const containerTmp = '/tmp'
    const { result, names } = run(`
      import { writeFileSync } from 'node:fs'
      console.log(process.getuid(), process.getgid())
      for (const file of ['/usr/local/bin/planted', '/sandbox/main.mjs', '/etc/passwd']) {
        try { writeFileSync(file, 'x'); console.log('wrote', file) } catch (error) { console.log(error.code) }
      }
      writeFileSync('${containerTmp}/ok', 'x')
      console.log('tmp ok')
    `)
    const r = await result
    expect(r.stdout).toBe('65534 65534\nEROFS\nEROFS\nEROFS\ntmp ok\n')
    expect(containers(names)).toBe('')
  })

  it('kills the container at the timeout: timedOut, no exit code, nothing left running', async () => {
    // The timeout covers the container's start too: long enough that a busy machine (CI's four
    // workers) still gets node to its first line, so the output so far is there to be kept.
    const { result, names } = run(`console.log('started'); while (true) {}`, { timeoutMs: 10_000 })
    const r = await result
    expect(r).toMatchObject({ timedOut: true, exitCode: null })
    expect(r.stdout).toBe('started\n')
    expect(names).toHaveLength(1)
    await vi.waitFor(() => expect(containers(names)).toBe(''), { timeout: 20_000, interval: 250 })
  })

  it('stops code at its memory limit (the kernel kills it) and at its pids limit', async () => {
    const memory = run(
      `const kept = []; for (let i = 0; i < 64; i++) kept.push(Buffer.alloc(16 * 1024 * 1024, 1)); console.log('kept', kept.length)`,
      { memory: '128m' },
    )
    const m = await memory.result
    expect(m.stdout).not.toContain('kept 64')
    expect(m.exitCode).toBe(137)
    // Every thread counts: node's own (~10) plus workers, each a few more.
    const pids = run(
      `import { Worker } from 'node:worker_threads'
      let made = 0
      try {
        for (let i = 0; i < 40; i++) {
          const w = new Worker('setInterval(() => {}, 1000)', { eval: true })
          await new Promise((resolve, reject) => { w.once('online', resolve); w.once('error', reject) })
          made++
        }
      } catch (error) { console.log('refused after', made, error.code ?? error.message) }
      console.log('made', made)
      process.exit(0)`,
      { pidsLimit: 32 },
    )
    const p = await pids.result
    expect(p.stdout).toMatch(/^refused after \d+ /)
    expect(p.stdout).not.toContain('made 40')
    expect(containers([...memory.names, ...pids.names])).toBe('')
  })
})

describe.skipIf(!docker.ok)(`the agent's run-code tool with AGENT_NATIVE_SANDBOX=docker${skipped}`, () => {
  let agent: AgentApp<false>
  beforeAll(async () => {
    agent = await startAgentApp({
      key: 'sk-ant-deployment-docker-run-code',
      team: false,
      env: docker.ok ? { AGENT_NATIVE_SANDBOX: 'docker', SANDBOX_DOCKER_IMAGE: docker.image } : {},
    })
  }, 120_000)
  afterAll(() => agent?.close())

  it('runs the code in a container over real HTTP', async () => {
    const ana = agent.app.client()
    await ana.signUp('Ana', 'ana@example.com')
    agent.fake.reply(
      toolUse('run-code', {
        code: `import os from 'node:os'; console.log(os.userInfo().uid, process.cwd())`,
      }),
      { text: 'Done.' },
    )
    const chat = await sendChat(ana, { message: userText('run it') })
    expect(toolParts(chat.reply, 'run-code')[0].output).toMatchObject({ exitCode: 0, stdout: '65534 /tmp\n' })
  })
})
