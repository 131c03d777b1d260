/**
 * A review of Docker environments and connected machines, written as the attacks: what a member's
 * command or definition in a `provider: docker` environment does to the host, and what a hostile
 * machine client (its owner's program: anyone may sign up and make a machine token) makes the
 * server do with what it sends. Each failed before decision 0419:
 *
 * - A container's output went to the Docker daemon's json-file log on the host's disk as well as
 *   to the server: 50 MB printed was 50 MB under /var/lib/docker. A container could also raise its
 *   core-dump limit (local commands have none).
 * - A personal secret named DOCKER_HOST went into the docker CLI's own environment: the server's
 *   CLI connected where the member said.
 * - The file watcher worked out whether a path was gone by joining its ancestors again and again:
 *   quadratic in the path's depth. One listing entry named `a/a/a/…` from a machine, or a tree
 *   2,000 folders deep from a command, held the server's loop for many seconds.
 * - A listing's entry names were taken as they came: `../../etc/cron.d/x` became a file event.
 * - A machine client's JSON-RPC batch (the protocol has none) was answered request by request on
 *   the loop: one 16 MiB batch held it for seconds.
 * - A reply's numbers the audit cannot hold were a 500 and no audit row; a command without a
 *   result (a bad reply, an error) was never audited.
 * - Registrations sent together held every connection of the database pool; each refused one was
 *   written to the server's log with its stack.
 *
 * The servers that could be frozen run in their own processes (from source, so this checkout's
 * code), asked for health (or a bystander's page) again and again while the attack runs.
 */
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { dockerExec } from '#server/environments/providers/providers-docker.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { HANG_GUARD_MS, healthWhile, stopTarget } from '#tests/support/health-probe.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

const run = promisify(execFile)
const E = '/_agent-native/environments'
const R = '/_agent-native/resources'
const MiB = 1024 * 1024

const docker = await dockerForTests()
const image = docker.ok ? docker.image : ''

let server: SpawnedServer
let mallory: ApiClient
let envsDir: string
const sockets: WebSocket[] = []

beforeAll(async () => {
  // No skips: this review is about Docker, so a missing engine fails the file, saying why.
  expect(docker, 'a Docker engine with the test image').toMatchObject({ ok: true })
  envsDir = mkdtempSync(path.join(tmpdir(), 'clockwork-review-envs-'))
  chmodSync(envsDir, 0o755)
  server = await spawnServer(
    { SCHEDULER_ENABLED: 'false', SANDBOX_DOCKER_IMAGE: image, ENVIRONMENTS_DIR: envsDir },
    sharedPostgres(inject('postgresUrl')),
    'source',
  )
  mallory = new ApiClient(server.baseUrl)
  await mallory.signUp('Mallory Review', 'mallory-review@example.com')
}, 180_000)

afterAll(async () => {
  for (const ws of sockets) ws.terminate()
  await stopTarget(server)
  // GNU rm walks by descriptor: fs.rmSync overflows its stack on the 2,000-deep tree made below.
  if (envsDir) await run('rm', ['-rf', envsDir])
}, 60_000)

const define = async (name: string, frontmatter: string[]) => {
  const body = ['---', ...frontmatter, '---', 'Under review.', ''].join('\n')
  return mallory.put(`${R}/personal/environments/${name}.md`, body)
}

/** A folder the container's user (the sandbox uid) may write, removed afterwards. */
function scratchRoot(prefix: string) {
  const root = mkdtempSync(path.join(tmpdir(), prefix))
  chmodSync(root, 0o777)
  return root
}

describe('a member’s command in a docker environment', () => {
  it('prints 50 MB: the server gets it, and the Docker daemon keeps none of it on the host’s disk', async () => {
    const root = scratchRoot('clockwork-review-log-')
    const marker = `log-${process.pid}-${Date.now()}`
    try {
      // The command prints, says so with a file, then waits for the test to look at the host.
      const command = [
        `: ${marker}`,
        "head -c 50000000 /dev/zero | tr '\\0' y",
        'touch /workspace/printed',
        'while [ ! -e /workspace/release ]; do sleep 0.1; done',
      ].join('; ')
      const result = dockerExec({ root, allowedHosts: [] }, command, { stopKey: 'run_review_log', image })
      await expect
        .poll(() => existsSync(path.join(root, 'printed')), { timeout: 60_000, interval: 100 })
        .toBe(true)
      const names = await run('docker', ['ps', '--no-trunc', '--format', '{{.Names}} {{.Command}}'])
      const name = names.stdout
        .split('\n')
        .find((line) => line.includes(marker))
        ?.split(' ')[0]
      expect(name).toBeTruthy()
      const logPath = (await run('docker', ['inspect', '--format', '{{.LogPath}}', name!])).stdout.trim()
      // Unfixed, the daemon's json-file log held every byte the command printed: 50 MB on the host.
      const onDisk = logPath && existsSync(logPath) ? statSync(logPath).size : 0
      writeFileSync(path.join(root, 'release'), '')
      const done = await result
      expect(onDisk).toBeLessThan(MiB)
      // The docker CLI still streams the output to the server, which keeps its cap of it.
      expect(done.bytesOut).toBeGreaterThanOrEqual(50_000_000)
      expect(done.truncated.stdout).toBe(true)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it('cannot raise its core-dump limit: a crash hands nothing to the host’s core handler', async () => {
    // The kernel's core_pattern is the host's: a dump goes to the host's handler (systemd-coredump,
    // apport), outside the container's limits, or here into the folder. Local commands get
    // `prlimit --core=0`; a container's hard limit was unlimited.
    const root = scratchRoot('clockwork-review-core-')
    try {
      const command = 'ulimit -c unlimited 2>/dev/null && echo raised || echo refused; ulimit -Hc'
      const result = await dockerExec({ root, allowedHosts: [] }, command, {
        stopKey: 'run_review_core',
        image,
      })
      expect(result.stdout).toBe('refused\n0\n')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('cannot use swap beyond its memory limit: memory and swap together are the limit', async () => {
    // Docker's --memory alone allows as much swap again: on a host with swap, a command held twice
    // the memory its definition gives it (decision 0429). The container's own cgroup says what it
    // may use (v1: memory.memsw.limit_in_bytes beside memory.limit_in_bytes; v2: memory.swap.max).
    const root = scratchRoot('clockwork-review-swap-')
    try {
      const command = [
        'cd /sys/fs/cgroup',
        'if [ -f memory.swap.max ]; then echo "v2 $(cat memory.swap.max)"',
        'else echo "v1 $(cat memory/memory.limit_in_bytes) $(cat memory/memory.memsw.limit_in_bytes)"; fi',
      ].join('; ')
      const result = await dockerExec({ root, allowedHosts: [] }, command, {
        stopKey: 'run_review_swap',
        image,
      })
      const [version, memory, withSwap] = result.stdout.trim().split(' ')
      if (version === 'v2') expect(memory).toBe('0')
      else expect({ version, withSwap }).toEqual({ version: 'v1', withSwap: memory })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  describe('with a secret named like a variable the docker CLI reads', () => {
    let listener: Server
    let requests: string[] = []

    beforeAll(async () => {
      listener = createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`)
        res.writeHead(500).end()
      })
      listener.listen(0, '127.0.0.1')
      await once(listener, 'listening')
    })
    afterAll(() => listener?.close())
    const dockerHost = () => `tcp://127.0.0.1:${(listener.address() as AddressInfo).port}`

    it('cannot be named by a docker definition: 400 on the secret, every bad one named', async () => {
      const put = await mallory.request('PUT', '/_agent-native/secrets/personal/DOCKER_HOST', {
        value: dockerHost(),
      })
      expect(put.status).toBeLessThan(300)
      expect(
        (
          await mallory.request('PUT', '/_agent-native/secrets/personal/DOCKER_CONFIG', {
            value: 'an-attackers-config-dir',
          })
        ).status,
      ).toBeLessThan(300)
      const res = await define('steer', [
        'provider: docker',
        'secrets: [API_KEY, DOCKER_HOST, DOCKER_CONFIG]',
      ])
      // Unfixed: saved (201), and its commands ran the server's docker CLI against the member's host.
      expect(res.status).toBe(400)
      expect(res.body.error.message).toMatch(/secrets\.1: .*docker CLI/)
      expect(res.body.error.message).toMatch(/secrets\.2: .*docker CLI/)
      expect(res.body.error.message).not.toMatch(/secrets\.0/)
    })

    it('stored before the rule, never reaches the server’s docker CLI: 400, and no connection', async () => {
      requests = []
      const root = scratchRoot('clockwork-review-host-')
      try {
        const ran = dockerExec(
          { root, allowedHosts: [], secrets: { DOCKER_HOST: dockerHost() } },
          'echo hello',
          { stopKey: 'run_review_host', image },
        )
        const outcome = await ran.then(
          (result) => ({ ran: result.exitCode }),
          (err: { status?: number; field?: string }) => ({
            refused: { status: err.status, field: err.field },
          }),
        )
        // Unfixed, the server's docker CLI asked the member's address (`HEAD /_ping`, then a create).
        expect(requests).toEqual([])
        expect(outcome).toEqual({ refused: { status: 400, field: 'secrets' } })
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })
  })

  it('makes a tree 2,000 folders deep holding 2,500 files: the server keeps answering', async () => {
    expect(
      (await define('deep', ['provider: docker', 'policy:', '  network:', '    allow: []'])).status,
    ).toBe(201)
    const fifty = Array.from({ length: 50 }, () => 'd').join('/')
    // Forty steps of fifty folders each (one mkdir a step), then the files at the bottom.
    const command = [
      `for i in $(seq 40); do mkdir -p ${fifty} && cd ${fifty} || exit 1; done`,
      "seq -f 'f%g' 2500 | xargs touch",
      'pwd | tr -cd / | wc -c',
    ].join('; ')
    const attempt = mallory.post(`${E}/deep/commands?scope=personal`, { command })
    // Unfixed, the watcher's comparison joined each new file's 2,000 ancestors again and again,
    // about a minute of the loop.
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.result.exitCode).toBe(0)
    expect(Number(res.body.result.stdout.trim())).toBeGreaterThanOrEqual(2000)
  }, 240_000)
})

type Call = { id: number; method: string; params: Record<string, unknown> }
type Answer = (call: Call) => unknown

/**
 * A machine client written by hand, registered as the token's machine `name` of an environment of
 * the same name: `answer` gives the result of each call (the file watcher's listings among them).
 */
async function hostileMachine(name: string, answer: Answer) {
  const made = await mallory.post('/_agent-native/machines/tokens', { name })
  expect(made.status).toBe(201)
  const saved = await define(name, [`provider: machine:${name}`])
  expect(saved.status, JSON.stringify(saved.body)).toBe(201)
  const ws = await openSocket(made.body.token)
  const send = (message: unknown) => ws.send(JSON.stringify(message))
  const registered = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(String(data))
      if (message.id === 'register') return resolve()
      if (!message.method) return
      send({ jsonrpc: '2.0', id: message.id, result: answer(message) })
    }),
  )
  send({
    jsonrpc: '2.0',
    id: 'register',
    method: 'register',
    params: { replace: true, os: 'test', version: '1.2.0', dir: '/nowhere', activeRuns: [] },
  })
  await registered
  return ws
}

async function openSocket(token: string) {
  const ws = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/_agent-native/machines/connect`, {
    headers: { authorization: `Bearer ${token}` },
  })
  sockets.push(ws)
  ws.on('error', () => {})
  await once(ws, 'open')
  return ws
}

const ran = { exitCode: 0, stdout: 'ok\n', stderr: '', durationMs: 1, timedOut: false, stopped: false }
const file = (name: string) => ({ name, type: 'file', size: 1, mtimeMs: 1 })
const folder = (name: string) => ({ name, type: 'directory', size: 0, mtimeMs: 1 })

/**
 * A machine whose folder is empty at the watcher's first listing; once the command is sent, the
 * root lists `entries(dir)` for each folder.
 */
function treeAfterCommand(entries: (dir: string) => unknown[]): Answer {
  let armed = false
  return (call) => {
    if (call.method === 'run_command') {
      armed = true
      return ran
    }
    if (call.method === 'list_directory') return { entries: armed ? entries(String(call.params.path)) : [] }
    return {}
  }
}

describe('a hostile machine client', () => {
  it('lists an entry named a/a/a/… 60,000 levels down: refused, and the server keeps answering', async () => {
    const name = Array.from({ length: 60_000 }, () => 'a').join('/')
    await hostileMachine(
      'deep-name',
      treeAfterCommand((dir) => (dir === '' ? [file(name)] : [])),
    )
    const attempt = mallory.post(`${E}/deep-name/commands?scope=personal`, { command: 'true' })
    // Unfixed, one 120 KB listing held the loop for about 20 seconds.
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(200)
    expect(res.body.files).toEqual([])
  }, 120_000)

  it('lists a tree 2,000 folders deep, one level a call, 2,500 files at the bottom: the server keeps answering', async () => {
    const depth = (dir: string) => (dir === '' ? 0 : dir.split('/').length)
    const files = Array.from({ length: 2500 }, (_, i) => file(`f${i}`))
    await hostileMachine(
      'deep-tree',
      treeAfterCommand((dir) => (depth(dir) < 2000 ? [folder('d')] : files)),
    )
    const attempt = mallory.post(`${E}/deep-tree/commands?scope=personal`, { command: 'true' })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    expect((await attempt).status).toBe(200)
  }, 180_000)

  it('lists names that climb out of its folder: no file event and no file of the listing names them', async () => {
    const climbing = [file('../../etc/cron.d/evil'), file('..'), file('a/../../b'), folder('.'), file('')]
    await hostileMachine(
      'climb',
      treeAfterCommand((dir) => (dir === '' ? [...climbing, file('fine.txt')] : [])),
    )
    const res = await mallory.post(`${E}/climb/commands?scope=personal`, { command: 'true' })
    expect(res.status).toBe(200)
    // Unfixed: `../../etc/cron.d/evil`, `..` and the rest were created files of the command.
    const paths: string[] = res.body.files.map((f: { path: string }) => f.path)
    expect(paths.filter((p) => p === '' || p.split('/').some((s) => s === '..' || s === '.'))).toEqual([])
    const listed = await mallory.get(`${E}/climb/files?scope=personal`)
    // The whole listing is a bad reply (502), named as such, rather than a tree of climbing paths.
    expect(listed.status).toBe(502)
    expect(listed.body.error.message).toMatch(/bad reply to list_directory \(entries\.0\.name/)
  }, 60_000)

  it('sends one 16 MiB JSON-RPC batch: the connection is cut and the server keeps answering', async () => {
    const made = await mallory.post('/_agent-native/machines/tokens', { name: 'batch' })
    const ws = await openSocket(made.body.token)
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
    const one = '{"jsonrpc":"2.0","id":1,"method":"nothing"}'
    const batch = `[${Array.from({ length: Math.floor((16 * MiB - 64) / (one.length + 1)) }, () => one).join(',')}]`
    for (let i = 0; i < 3; i++) ws.send(batch)
    // Unfixed, each was answered request by request on the loop (about four seconds apiece) and the
    // connection kept.
    expect(await healthWhile(server.baseUrl, closed, HANG_GUARD_MS)).toBeGreaterThan(0)
    expect(await closed).toBe(1008)
  }, 120_000)

  it('sends a batch nested past every bound: refused as a batch from its first byte, before it is scanned', async () => {
    const made = await mallory.post('/_agent-native/machines/tokens', { name: 'deep-batch' })
    const ws = await openSocket(made.body.token)
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    )
    // Deeper than a message may be: a scan of it would refuse it for its depth first. Refused for
    // being a batch, it was never scanned (what a 16 MiB batch cost the loop on a busy machine).
    ws.send(`  [${'['.repeat(1_000)}${']'.repeat(1_000)}]`)
    expect(await closed).toEqual({ code: 1008, reason: 'a JSON-RPC batch, which the protocol does not use' })
  }, 60_000)
})

describe('a hostile machine client’s numbers and errors', () => {
  it('replies with a duration and exit code no column holds: the command is answered and audited', async () => {
    const odd = { ...ran, exitCode: 2 ** 40, durationMs: 1e12 + 0.5 }
    await hostileMachine('numbers', (call) => (call.method === 'run_command' ? odd : { entries: [] }))
    const res = await mallory.post(`${E}/numbers/commands?scope=personal`, { command: 'echo audited-odd' })
    // Unfixed, the audit row could not be written (integer columns): a 500, and no trace of a
    // command that ran on the machine.
    expect(res.status, JSON.stringify(res.body)).toBe(502)
    expect(res.body.error.message).toMatch(/bad reply to run_command \(exitCode/)
    const listed = await mallory.get(E)
    const env = listed.body.environments.find((e: { name: string }) => e.name === 'numbers')
    const audit = await mallory.get(`${E}/${env.id}/audit`)
    expect(audit.status).toBe(200)
    expect(JSON.stringify(audit.body)).toContain('audited-odd')
  }, 60_000)

  it('fails a command with a megabyte of an error holding NUL: answered, and audited in short', async () => {
    const made = await mallory.post('/_agent-native/machines/tokens', { name: 'erring' })
    expect((await define('erring', ['provider: machine:erring'])).status).toBe(201)
    const ws = await openSocket(made.body.token)
    const message = `broke\u0000${'x'.repeat(MiB)}`
    const registered = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        const call = JSON.parse(String(data))
        if (call.id === 'register') resolve()
        if (call.method === 'list_directory')
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { entries: [] } }))
        if (call.method === 'run_command')
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message } }))
      }),
    )
    const params = { replace: true, os: 'test', version: '1.2.0', dir: '/nowhere', activeRuns: [] }
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'register', method: 'register', params }))
    await registered
    const res = await mallory.post(`${E}/erring/commands?scope=personal`, { command: 'echo erring' })
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(502)
    const listed = await mallory.get(E)
    const env = listed.body.environments.find((e: { name: string }) => e.name === 'erring')
    const audit = await mallory.get(`${E}/${env.id}/audit`)
    const row = audit.body.entries.find((e: { subject: string }) => e.subject === 'echo erring')
    expect(row.reason.length).toBeLessThan(600)
    expect(row.reason).toMatch(/^No result: machine erring: broke\ufffdx+$/)
  }, 60_000)
})

describe('a hostile machine client’s registrations', () => {
  const params = { replace: true, os: 'test', version: '1.2.0', dir: '/nowhere', activeRuns: [] }
  const register = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'register', params })
  let bob: ApiClient

  beforeAll(async () => {
    bob = new ApiClient(server.baseUrl)
    await bob.signUp('Bob Bystander', 'bob-review@example.com')
  })

  /**
   * Reads a bystander's jobs again and again until `attack` settles: each read needs the database,
   * and must come within the hang guard.
   */
  async function readsWhile(attack: Promise<unknown>) {
    let reads = 0
    let settled = false
    void attack.finally(() => (settled = true)).catch(() => {})
    while (!settled || reads === 0) {
      const started = Date.now()
      const res = await bob.get('/_agent-native/jobs')
      expect(res.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS)
      reads++
    }
    await attack
  }

  it('sends 5,000 registrations at once: another person’s page still reads the database', async () => {
    const made = await mallory.post('/_agent-native/machines/tokens', { name: 'registrar' })
    const ws = await openSocket(made.body.token)
    let replies = 0
    ws.on('message', () => replies++)
    for (let id = 0; id < 5000; id++) ws.send(register(id))
    // Each registration was a transaction waiting on the owner's lock: 5,000 of them held every
    // connection of the server's pool for about half a minute, and the bystander waited.
    await readsWhile(expect.poll(() => replies, { timeout: 120_000, interval: 50 }).toBe(5000))
  }, 180_000)

  it('opens 1,000 sockets with one token, each registering at once: the database still answers', async () => {
    const made = await mallory.post('/_agent-native/machines/tokens', { name: 'crowd' })
    // Since decision 0427 most are refused at the upgrade (429: a few sockets of a token, and of an
    // address, may wait to register at once); those let in register together.
    const upgrades = await Promise.all(
      Array.from({ length: 1000 }, () => openSocket(made.body.token).catch(() => undefined)),
    )
    const crowd = upgrades.filter((ws) => ws !== undefined)
    expect(crowd.length).toBeGreaterThan(0)
    // Each socket is answered, or closed when its turn comes after its ten seconds to register.
    let settled = 0
    for (const ws of crowd) {
      const done = () => {
        settled++
        ws.removeAllListeners('message').removeAllListeners('close')
      }
      ws.on('message', done).on('close', done)
    }
    crowd.forEach((ws, id) => ws.send(register(id)))
    await readsWhile(expect.poll(() => settled, { timeout: 120_000, interval: 50 }).toBe(crowd.length))
    for (const ws of crowd) ws.terminate()
  }, 180_000)
})

describe('a hostile machine client’s bad registrations', () => {
  it('sends 20,000 malformed registrations: refused, and the server’s log does not grow with them', async () => {
    const made = await mallory.post('/_agent-native/machines/tokens', { name: 'noisy' })
    const ws = await openSocket(made.body.token)
    const refusals: unknown[] = []
    ws.on('message', (data) => refusals.push(JSON.parse(String(data))))
    const logged = () => server.output().split('executing "register"').length
    const before = logged()
    for (let id = 0; id < 20_000; id++) {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'register', params: { os: 1 } }))
    }
    await expect.poll(() => refusals.length, { timeout: 60_000, interval: 50 }).toBe(20_000)
    expect(refusals[0]).toMatchObject({ error: { data: { code: 'bad_request' } } })
    // Unfixed, each refusal was also written to the server's console with its stack.
    expect(logged() - before).toBe(0)
  }, 120_000)
})
