/**
 * The production image (the project's Dockerfile, built by scripts/production-image.sh over a
 * locally made base where no registry answers; Docker's layer cache makes an unchanged tree's
 * rebuild take seconds, and `.ci/run` builds it before the tests) booted against the machine's
 * PostgreSQL on the host network, as Fly would run it (`--memory 512m`, fly.toml's machine):
 * health answers, sign-up works, a job runs with the fake model (on this host), it runs as a
 * non-root user, its memory stays within 512 MiB under a short load, and SIGTERM stops it cleanly
 * within the grace period. CI requires a Docker engine (REQUIRE_DOCKER=1).
 */
import { execFile, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { ApiClient } from '#tests/support/api-client.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { createEmptyDatabase, freePort } from '#tests/support/postgres-server.ts'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const TAG = 'clockwork:local'
const KEY = 'sk-ant-production-image-test'
/** fly.toml's machine and grace: memory = "512mb", SHUTDOWN_GRACE_SECONDS = "25". */
const MACHINE_MEMORY = 512 * 1024 * 1024
const GRACE_SECONDS = 25

const docker = await dockerForTests()
const skipped = docker.ok ? '' : ` (skipped: ${docker.why})`

const inspect = (name: string, format: string) =>
  execFileSync('docker', ['inspect', '--format', format, name], { encoding: 'utf8' }).trim()

/** The container's peak memory as its cgroup counts it (v1 or v2, cgroupfs or systemd driver). */
function peakMemory(id: string): number {
  const candidates = [
    `/sys/fs/cgroup/memory/docker/${id}/memory.max_usage_in_bytes`,
    `/sys/fs/cgroup/docker/${id}/memory.peak`,
    `/sys/fs/cgroup/system.slice/docker-${id}.scope/memory.peak`,
  ]
  const file = candidates.find((candidate) => existsSync(candidate))
  if (!file) throw new Error(`no memory accounting for container ${id} under /sys/fs/cgroup`)
  return Number(readFileSync(file, 'utf8').trim())
}

describe.skipIf(!docker.ok)(`the production image${skipped}`, () => {
  let fake: FakeAnthropic
  let database: { url: string; drop(): Promise<void> }
  let baseUrl: string
  const name = `clockwork-prod-test-${randomBytes(4).toString('hex')}`
  let logs = ''

  beforeAll(async () => {
    // Cached layers: seconds when .ci/run (or an earlier run) built this tree already.
    await run(path.join(root, 'scripts/production-image.sh'), [TAG], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    })
    // A database of its own on the run's one PostgreSQL server (tests/support/global-setup.ts).
    database = await createEmptyDatabase(inject('postgresUrl'))
    fake = await startFakeAnthropic({ apiKey: KEY, fallback: { text: 'Numbers posted.' } })
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: randomBytes(24).toString('hex'),
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: fake.baseURL,
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      AUTH_RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
    }
    // Values in the CLI's environment, names on its command line.
    const names = Object.keys(env).flatMap((key) => ['-e', key])
    await run(
      'docker',
      ['run', '-d', '--name', name, '--network', 'host', '--memory', '512m', ...names, TAG],
      {
        env: { ...process.env, ...env },
      },
    )
    await vi.waitFor(
      async () => {
        const health = await fetch(`${baseUrl}/_agent-native/health`).catch((error: Error) => error)
        expect(health instanceof Response && health.status).toBe(200)
      },
      { timeout: 60_000, interval: 250 },
    )
  }, 900_000)

  afterAll(async () => {
    logs = await run('docker', ['logs', name])
      .then((out) => out.stdout + out.stderr)
      .catch(() => '')
    await run('docker', ['rm', '-f', name]).catch(() => {})
    await fake?.close()
    await database?.drop()
    if (logs && process.env.DEBUG_PRODUCTION_IMAGE) console.info(logs)
  })

  it('runs as the non-root user the Dockerfile names', () => {
    expect(inspect(name, '{{.Config.User}}')).toBe('node')
    const pid = inspect(name, '{{.State.Pid}}')
    const uids = /^Uid:\s+(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!.split(/\s+/)
    expect(uids).toEqual(['1000', '1000', '1000', '1000'])
  })

  it('answers health, signs a person up, and runs a job with the fake model', async () => {
    const health = await fetch(`${baseUrl}/_agent-native/health`)
    expect(health.status).toBe(200)
    const ana = new ApiClient(baseUrl)
    await ana.signUp('Ana', 'ana@example.com')
    const job = await ana.post('/_agent-native/jobs', {
      name: 'daily-numbers',
      schedule: '0 7 * * 1-5',
      instructions: 'Summarise yesterday and post the numbers.',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
    const started = await ana.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300)
    const runId: string = started.body.run.id
    await vi.waitFor(
      async () => expect((await ana.get(`/_agent-native/runs/${runId}`)).body.run.status).toBe('success'),
      { timeout: 60_000, interval: 250 },
    )
    const finished = (await ana.get(`/_agent-native/runs/${runId}`)).body
    expect(finished.run.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 })
    expect(JSON.stringify(finished.transcript ?? finished)).toContain('Numbers posted.')
    expect(fake.requests.some((r) => JSON.stringify(r.body).includes('Summarise yesterday'))).toBe(true)
  })

  it('stays within the 512 MiB machine under a short load', async () => {
    const bob = new ApiClient(baseUrl)
    await bob.signUp('Bob', 'bob@example.com')
    const paths = ['/jobs', '/_agent-native/jobs', '/_agent-native/health', '/workspace']
    // 8 at a time, 400 requests: pages rendered on the server and JSON, as people use it.
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          fetch(baseUrl + paths[(batch + i) % paths.length], { headers: { cookie: bob.cookieHeader } }),
        ),
      )
      for (const answer of answers) {
        await answer.arrayBuffer()
        expect(answer.status).toBe(200)
      }
    }
    expect(inspect(name, '{{.State.OOMKilled}}')).toBe('false')
    expect(inspect(name, '{{.State.Running}}')).toBe('true')
    const peak = peakMemory(inspect(name, '{{.Id}}'))
    console.info(`production image: peak memory ${(peak / 1024 / 1024).toFixed(0)} MiB under the load`)
    expect(peak).toBeLessThan(MACHINE_MEMORY)
  }, 180_000) // ~10 s alone; much longer beside the whole suite on two cores

  it('stops on SIGTERM within the grace period, exiting 0', async () => {
    await run('docker', ['kill', '--signal', 'TERM', name])
    await vi.waitFor(() => expect(inspect(name, '{{.State.Running}}')).toBe('false'), {
      timeout: GRACE_SECONDS * 1000,
      interval: 200,
    })
    expect(inspect(name, '{{.State.ExitCode}}')).toBe('0')
  })
})
