/**
 * What stops a Claude Code run besides cancel (harness.test.ts, harness-docker.test.ts): the job's
 * timeout and a lost lease. Either way the whole process tree of the run (bwrap, the relay, the CLI,
 * its shell, the command it waits on; in a `provider: docker` environment the docker CLI and the
 * container's processes, which the host's `ps` lists too) is gone within 2 s, and the run says why.
 * The real CLI, pinned, against the fake model through the run's endpoint; a real scheduler with a
 * short lease so a lost one shows. The Docker cases need an engine (REQUIRE_DOCKER=1 in CI).
 */
import { execFileSync } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { startHarnessApp } from '#tests/support/harness-runs.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'

const R = '/_agent-native/resources'
/** The scheduler renews leases every LEASE_MS / 4. */
const LEASE_MS = 4_000

const docker = await dockerForTests()

let agent: AgentApp
let team: Team
let fake: FakeAnthropic

beforeAll(async () => {
  agent = await startHarnessApp({
    key: 'sk-ant-control-key',
    environmentsDir: 'clockwork-harness-control-',
    scheduler: { leaseMs: LEASE_MS },
    env: docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {},
  })
  ;({ team, fake } = agent)
}, 120_000)
afterAll(async () => {
  await agent?.close()
})

async function runStatus(c: ApiClient, runId: string) {
  return (await c.get(`/_agent-native/runs/${runId}`)).body.run as { status: string; error?: string }
}

const marker = (seconds: number) => `tail -f -s ${seconds} /dev/null`

/** Every process of one run: its sandbox and relay name the environment's folder; the command its marker. */
const processesOf = (env: string, marker: string) =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) || l.includes(`/${env}`))

/**
 * Starts a job whose harness waits on a command that never ends (Claude Code refuses a long
 * `sleep`), marked by `seconds`, and returns once that command runs.
 */
async function startWaiting(
  c: ApiClient,
  env: string,
  seconds: number,
  fields: Record<string, unknown> = {},
) {
  const provider = env.split('-')[0]
  expect(
    (await c.put(`${R}/personal/environments/${env}.md`, `---\nprovider: ${provider}\n---\nWait.\n`)).status,
  ).toBe(201)
  const job = await c.post('/_agent-native/jobs', {
    name: env,
    schedule: '0 7 * * 1-5',
    instructions: `Task ${env}: wait.`,
    environment: env,
    harness: 'claude-code',
    ...fields,
  })
  expect(job.status, JSON.stringify(job.body)).toBe(201)
  fake.replyWhen(
    `Task ${env}:`,
    toolUse('Bash', { command: `tail -f -s ${seconds} /dev/null`, description: 'wait', timeout: 600000 }),
  )
  const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
  expect(started.status).toBe(202)
  const runId = started.body.run.id as string
  await vi.waitFor(
    async () => {
      expect((await runStatus(c, runId)).status).toBe('running')
      expect(processesOf(env, marker(seconds)).some((l) => l.includes(marker(seconds)))).toBe(true)
    },
    { timeout: 90_000, interval: 200 },
  )
  return runId
}

const providers = [
  { provider: 'local', seconds: 0, skip: '' },
  { provider: 'docker', seconds: 10, skip: docker.ok ? '' : docker.why },
]

// Side by side: each timeout test waits out a whole minute, and the four runs share nothing but
// the app (each its own environment, job and marker).
describe.concurrent.each(providers)(
  'a Claude Code run in a $provider environment stopped from outside',
  ({ provider, seconds, skip }) => {
    it.skipIf(skip)(
      `past the job's timeout: timed_out with the reason, no process left${skip && ` (skipped: ${skip})`}`,
      async () => {
        const c = team.member.client
        // timeoutMinutes has a floor of 1: this test waits that minute out.
        const runId = await startWaiting(c, `${provider}-timeout`, 3601 + seconds, { timeoutMinutes: 1 })
        const { run } = await waitForRun(c, runId, { until: (s) => s === 'timed_out', timeout: 90_000 })
        expect(run.error).toContain('1-minute timeout')
        await vi.waitFor(
          () => expect(processesOf(`${provider}-timeout`, marker(3601 + seconds))).toEqual([]),
          {
            timeout: 20_000,
            interval: 50,
          },
        )
      },
      200_000,
    )

    it.skipIf(skip)(
      `when the instance loses its lease: the process tree is stopped, and the run says why${skip && ` (skipped: ${skip})`}`,
      async () => {
        const c = team.member.client
        const runId = await startWaiting(c, `${provider}-lease`, 3602 + seconds)
        // Another instance took the run over (as after a network partition): this one no longer holds
        // it, and learns so at its next heartbeat (the job change wakes it at once).
        const db = agent.app.server.db.db
        await db.execute(sql`update job_runs set instance = 'another-instance' where id = ${runId}`)
        await db.execute(sql`select pg_notify('clockwork_jobs_changed', '')`)
        await vi.waitFor(() => expect(processesOf(`${provider}-lease`, marker(3602 + seconds))).toEqual([]), {
          timeout: LEASE_MS / 4 + 2_000,
          interval: 50,
        })
        // The lease it no longer renews lapses; the reaper settles the run and says why.
        const { run } = await waitForRun(c, runId, { until: (s) => s === 'interrupted', timeout: 30_000 })
        // The reaper's words: the server holding the run's lease stopped renewing it.
        expect(run.error).toContain('(another-instance) stopped responding')
      },
      200_000,
    )
  },
)
