/**
 * `provider: docker` through the real agent tools over real HTTP, with the fake model and a real
 * Docker engine (the local test image): the folder at /workspace, secrets by name only on the
 * command line and redacted in the output, the policy's hosts only (through the filtering proxy
 * relayed into a container that has no network of its own; decision 0286), snapshot and restore,
 * and a cancelled run's container killed. The folder is this server's, so write_file works with or
 * without an engine; run_command needs one. CI requires the engine (REQUIRE_DOCKER=1,
 * tests/support/docker.ts); elsewhere the engine tests skip and say why.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { networkInterfaces, tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { snapshotName } from '#server/environments/bootstrap/snapshot.ts'
import { dockerExec, dockerState } from '#server/environments/providers/providers-docker.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-docker-0013'
const SECRET_VALUE = 'docker-env-secret-value-7731'
const R = '/_agent-native/resources'

let agent: AgentApp<false>
let fake: FakeAnthropic
let ana: ApiClient
let snapshots: string

const docker = await dockerForTests()
const skipped = docker.ok ? '' : ` (skipped: ${docker.why})`

beforeAll(async () => {
  snapshots = mkdtempSync(path.join(tmpdir(), 'clockwork-docker-snapshots-'))
  agent = await startAgentApp({
    key: KEY,
    environmentsDir: 'clockwork-envs-docker-',
    team: false,
    scheduler: true,
    env: {
      ENVIRONMENT_SNAPSHOTS_DIR: snapshots,
      ...(docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {}),
    },
  })
  fake = agent.fake
  ana = agent.app.client()
  await ana.signUp('Ana', 'ana@example.com')
}, 120_000)

afterAll(async () => {
  await agent?.close()
  rmSync(snapshots, { recursive: true, force: true })
})

const define = async (name: string, frontmatter: string[]) => {
  const body = ['---', 'provider: docker', ...frontmatter, '---', 'In a container.', ''].join('\n')
  const saved = await ana.put(`${R}/personal/environments/${name}.md`, body)
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300)
}

/** One chat turn that runs `command` in `environment`; answers the tool's output. */
async function runIn(environment: string, command: string) {
  fake.reply(toolUse('run_command', { environment, command }), { text: 'Done.' })
  const chat = await sendChat(ana, { message: userText(`run ${command}`) })
  expect(chat.status).toBe(200)
  return toolParts(chat.reply, 'run_command')[0].output
}

/** `docker ps` lines (name and full command) of containers whose command holds `marker`. */
const containersWith = (marker: string) =>
  execFileSync('docker', ['ps', '-a', '--no-trunc', '--format', '{{.Names}} {{.Command}}'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line.includes(marker))

const envRoot = async (name: string) => {
  const [row] = await queryRows<{ id: string; dir: string }>(
    agent.app.server.db.db,
    sql`select id, dir from environments where name = ${name}`,
  )
  return { id: row!.id, root: path.join(agent.dir!, 'environments', row!.dir) }
}

describe('an environment with provider: docker', () => {
  it('writes files in its folder here and runs commands only where a Docker engine answers', async () => {
    await define('box', ['policy:', '  network:', '    allow: []'])
    fake.reply(
      toolUse('write_file', { environment: 'box', path: 'hello.txt', content: 'hi\n' }),
      toolUse('run_command', { environment: 'box', command: 'cat hello.txt; pwd; echo "$HOME"' }),
      { text: 'Done.' },
    )
    const chat = await sendChat(ana, { message: userText('try it') })
    expect(toolParts(chat.reply, 'write_file')[0].output).toMatchObject({ ok: true, path: 'hello.txt' })
    const ran = toolParts(chat.reply, 'run_command')[0].output
    if (docker.ok) {
      expect(ran).toMatchObject({
        ok: true,
        exitCode: 0,
        stdout: 'hi\n/workspace\n/workspace\n',
        mechanism: 'docker',
      })
    } else {
      const daemon = await dockerState()
      expect(ran).toMatchObject({ ok: false, error: { status: 503 } })
      expect(ran.error.message).toBe(`docker is unavailable on this server: ${daemon.ok || daemon.why}`)
    }
  })
})

describe.skipIf(!docker.ok)(`provider: docker against a real engine${skipped}`, () => {
  it('passes secrets by name only (the value never on a command line) and redacts them', async () => {
    const saved = await ana.request('PUT', '/_agent-native/secrets/personal/API_TOKEN', {
      value: SECRET_VALUE,
    })
    expect(saved.status).toBe(200)
    await define('secret-box', ['secrets: [API_TOKEN]', 'policy:', '  network:', '    allow: []'])
    const marker = `secret-marker-${Date.now()}`
    const running = runIn(
      'secret-box',
      `echo "$API_TOKEN" > made.txt; echo "token: $API_TOKEN"; sleep 3; : ${marker}`,
    )
    // While it runs: the docker CLI's command line on this host names the secret, never its value.
    let cli = ''
    await vi.waitFor(
      () => {
        cli = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
          .split('\n')
          .filter((line) => line.startsWith('docker run') && line.includes(marker))
          .join('\n')
        expect(cli).not.toBe('')
      },
      { timeout: 30_000, interval: 100 },
    )
    expect(cli).toContain('--env API_TOKEN ')
    expect(cli).not.toContain(SECRET_VALUE)
    const ran = await running
    expect(ran).toMatchObject({ ok: true, exitCode: 0, stdout: 'token: ••••\n' })
    expect(JSON.stringify(ran)).not.toContain(SECRET_VALUE)
    const { root } = await envRoot('secret-box')
    expect(readFileSync(path.join(root, 'made.txt'), 'utf8')).toBe(`${SECRET_VALUE}\n`)
  })

  describe('network: the policy names the only hosts a container reaches', () => {
    let host: Server
    let connections = 0
    const gateway = () =>
      networkInterfaces().docker0?.find((a) => a.family === 'IPv4')?.address ?? '172.17.0.1'
    const port = () => (host.address() as { port: number }).port
    const curl = (url: string, viaProxy = true) =>
      `curl -sS -m 5 --noproxy ${viaProxy ? "''" : "'*'"} -o /dev/null -w '%{http_code}\\n' ${url} 2>/dev/null; true`

    beforeAll(async () => {
      // On every address of this host, docker0's included: what Docker's bridge would have reached.
      host = createServer((_req, res) => res.end('reached'))
      host.on('connection', () => connections++)
      await new Promise<void>((resolve) => host.listen(0, '0.0.0.0', resolve))
      await define('net-box', ['policy:', '  network:', '    allow: ["allowed.invalid"]'])
    })
    afterAll(() => host?.close())

    it('a named host goes through the proxy; another is refused and reported', async () => {
      // .invalid never resolves: an allowed name gets as far as the proxy's own lookup (502).
      const allowed = await runIn('net-box', curl('http://allowed.invalid/'))
      expect(allowed).toMatchObject({ ok: true, stdout: '502\n', mechanism: 'docker' })
      expect(allowed.networkBlocked).toBeUndefined()
      const other = await runIn('net-box', curl('http://other.invalid/'))
      expect(other).toMatchObject({ ok: true, stdout: '403\n', networkBlocked: ['other.invalid:80'] })
    })

    it('cannot go around the proxy: no route to this host or anywhere else', async () => {
      connections = 0
      const direct = await runIn(
        'net-box',
        [
          curl(`http://${gateway()}:${port()}/`, false),
          curl('http://1.1.1.1/', false),
          'ls /sys/class/net',
        ].join('; '),
      )
      expect(direct.stdout).toBe('000\n000\nlo\n')
      expect(connections).toBe(0)
    })

    it('a policy naming no host gets no proxy at all', async () => {
      const none = await runIn('box', `${curl('http://allowed.invalid/')}; echo "[$HTTP_PROXY]"`)
      expect(none.stdout).toBe('000\n[]\n')
    })

    it('a stored policy naming this host by an inside literal is never handed to the proxy', async () => {
      // A definition saved before literals were refused (the API answers 400 now): the proxy never sees it.
      connections = 0
      const root = mkdtempSync(path.join(tmpdir(), 'clockwork-docker-literal-'))
      chmodSync(root, 0o777)
      try {
        const hosts = [`${gateway()}:${port()}`, `127.0.0.1:${port()}`, `localhost:${port()}`]
        const result = await dockerExec(
          { root, allowedHosts: hosts },
          [
            curl(`http://${gateway()}:${port()}/`),
            curl(`http://localhost:${port()}/`),
            'echo "[$HTTP_PROXY]"',
          ].join('; '),
          { stopKey: 'run_literal', image: docker.ok ? docker.image : '' },
        )
        expect(result.stdout).toBe('000\n000\n[]\n')
        expect(connections).toBe(0)
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })
  })

  it('takes a snapshot after setup; a wiped folder is restored from it and the container sees it', async () => {
    await define('snap-box', [
      'setup:',
      '  - "echo built > built.txt"',
      'policy:',
      '  network:',
      '    allow: []',
    ])
    const first = await runIn('snap-box', 'cat built.txt')
    expect(first).toMatchObject({ ok: true, exitCode: 0, stdout: 'built\n' })
    const { id, root } = await envRoot('snap-box')
    expect(existsSync(path.join(snapshots, snapshotName(id)))).toBe(true)
    rmSync(root, { recursive: true, force: true }) // a new host, a cleaned disk
    const again = await runIn('snap-box', 'cat built.txt; ls')
    expect(again).toMatchObject({ ok: true, exitCode: 0 })
    expect(again.stdout.split('\n')).toContain('built')
    const bootstrap = (await ana.get(`/_agent-native/environments/${id}/bootstrap`)).body.bootstrap
    expect(bootstrap).toMatchObject({ status: 'ready', restoredFrom: 'snapshot' })
  })

  it('cancelling a job run kills its container', async () => {
    await define('sleep-box', ['policy:', '  network:', '    allow: []'])
    const job = await ana.post('/_agent-native/jobs', {
      name: 'docker-sleeper',
      schedule: '0 7 * * 1-5',
      instructions: 'Sleep in the container.',
      environment: 'sleep-box',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
    const marker = `cancel-marker-${Date.now()}`
    fake.reply(toolUse('run_command', { command: `sleep 60; : ${marker}` })) // then the fallback
    const started = await ana.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    const runId: string = started.body.run.id
    await vi.waitFor(() => expect(containersWith(marker)).toHaveLength(1), { timeout: 30_000, interval: 200 })
    expect((await ana.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await vi.waitFor(() => expect(containersWith(marker)).toEqual([]), { timeout: 20_000, interval: 200 })
    expect((await ana.get(`/_agent-native/runs/${runId}`)).body.run.status).toBe('cancelled')
  })
})
