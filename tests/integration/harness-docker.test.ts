/**
 * A job whose agent is the real Claude Code CLI (`npm run harness:install claude-code`) in a
 * `provider: docker` environment, against the fake model and a real Docker engine with the test
 * image (scripts/sandbox-test-image.sh): the CLI runs in the environment's container (no network,
 * the folder at /workspace, its install folder read-only) and reaches the run's endpoint through
 * the relay on the container's loopback. Its `Bash` writes into the folder; the steps, tokens and
 * cost land on the run; the deployment's key is nowhere in the container (its variables, its
 * processes, its files, `docker inspect`); the policy denies and audits a call; the policy's host
 * is reached through the relayed proxy and no other; cancel leaves no container behind; OpenCode
 * runs there too. CI requires the engine (REQUIRE_DOCKER=1, tests/support/docker.ts); elsewhere the
 * engine tests skip and say why.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { claudeCode } from '#server/harness/claude-code.ts'
import { openCode } from '#server/harness/opencode.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import type { AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import {
  ALLOW_ONE_HOST,
  bashParts,
  DENY_CURL,
  expectCurlDenied,
  expectPolicyHosts,
  expectWriteRun,
  runWithReplies,
  settledRun,
  startHarnessApp,
  startWaitingRun,
  WAIT_COMMAND,
} from '#tests/support/harness-runs.ts'
import type { Team } from '#tests/support/team.ts'

// The deployment's key: planted so the container can be searched for it.
const KEY = 'sk-ant-planted-docker-harness-key-4K2W'
const R = '/_agent-native/resources'

const docker = await dockerForTests()
const skipped = docker.ok ? '' : ` (skipped: ${docker.why})`

let agent: AgentApp
let team: Team

beforeAll(async () => {
  agent = await startHarnessApp({
    key: KEY,
    environmentsDir: 'clockwork-harness-docker-',
    scheduler: true,
    env: docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {},
  })
  team = agent.team
}, 120_000)
afterAll(async () => {
  await agent?.close()
})

async function dockerHarnessJob(
  c: ApiClient,
  name: string,
  env: string,
  envYaml = '',
  harness = 'claude-code',
) {
  const definition = `---\nprovider: docker\n${envYaml}---\nWork carefully.\n`
  expect((await c.put(`${R}/personal/environments/${env}.md`, definition)).status).toBe(201)
  const job = await c.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * 1-5',
    instructions: `Task ${name}: do the thing.`,
    environment: env,
    harness,
  })
  expect(job.status).toBe(201)
  return job.body.job as { id: string }
}

const envRoot = async (name: string) => {
  const [row] = await queryRows<{ dir: string }>(
    agent.app.server.db.db,
    sql`select dir from environments where name = ${name}`,
  )
  return path.join(agent.dir!, 'environments', row!.dir)
}

/** The harness containers (running or not) whose folder mount is `root`, as `docker inspect` has them. */
function harnessContainers(root: string): any[] {
  const names = execFileSync(
    'docker',
    ['ps', '-a', '--filter', 'name=clockwork-harness-', '--format', '{{.Names}}'],
    {
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter(Boolean)
  if (names.length === 0) return []
  let inspected: any[]
  try {
    inspected = JSON.parse(execFileSync('docker', ['inspect', ...names], { encoding: 'utf8' }))
  } catch {
    return [] // one went away between the listing and the inspection: ask again
  }
  return inspected.filter((c) => (c.Mounts as any[]).some((m) => m.Source === root))
}

describe.skipIf(!docker.ok)(`a harness job in a docker environment${skipped}`, () => {
  it('runs on Run now in the container: Bash writes a file in the folder, steps, tokens and cost on the run, no key inside', async () => {
    const c = team.member.client
    const job = await dockerHarnessJob(c, 'boxed', 'harness-box')
    const { write } = await expectWriteRun(agent, c, job, 'boxed', KEY)
    expect(JSON.stringify(write.output)).toContain('/workspace') // the container's folder
    const root = await envRoot('harness-box')
    expect(readFileSync(path.join(root, 'boxed.txt'), 'utf8')).toBe('boxed-was-here\n')
    // Nothing of the run is left: its projection folder, its container.
    expect(readdirSync(root).filter((f) => f.startsWith('.harness-'))).toEqual([])
    await vi.waitFor(() => expect(harnessContainers(root)).toEqual([]), { timeout: 20_000, interval: 100 })
  }, 120_000)

  it('a Bash call the policy denies is refused, audited, and the run says so', async () => {
    const c = team.member.client
    const job = await dockerHarnessJob(c, 'boxdeny', 'harness-box-deny', DENY_CURL)
    await expectCurlDenied(agent, c, job, 'boxdeny')
  }, 120_000)

  it("reaches the hosts the environment's policy names through the relayed proxy, and no others", async () => {
    const c = team.member.client
    const job = await dockerHarnessJob(c, 'boxhosts', 'harness-box-hosts', ALLOW_ONE_HOST)
    await expectPolicyHosts(agent, c, job, 'boxhosts')
  }, 120_000)

  it('the running container has no network, the CLI read-only, no key anywhere; cancel leaves no container behind', async () => {
    const c = team.member.client
    const job = await dockerHarnessJob(c, 'boxsleeper', 'harness-box-cancel')
    const runId = await startWaitingRun(agent, c, job, 'boxsleeper')
    let root = ''
    const running = await vi.waitFor(
      async () => {
        const now = (await c.get(`/_agent-native/runs/${runId}`)).body
        expect(now.run.status, JSON.stringify(now)).toBe('running')
        root = await envRoot('harness-box-cancel')
        const [box] = harnessContainers(root)
        expect(box?.State?.Running).toBe(true)
        const top = execFileSync('docker', ['top', box.Name.slice(1), '-eo', 'pid,args'], {
          encoding: 'utf8',
        })
        expect(top).toContain(WAIT_COMMAND)
        return box
      },
      { timeout: 60_000, interval: 200 },
    )
    const inspected = JSON.stringify(running)
    expect(inspected).not.toContain(KEY)
    expect(inspected).toContain('ANTHROPIC_API_KEY=hrn_')
    expect(running.HostConfig.NetworkMode).toBe('none')
    // One relay in front of the CLI: the run's endpoint beside the filtering proxy (the default hosts).
    expect(running.Args).toContain('3128=/run/clockwork-proxy/proxy.sock')
    expect(running.Args.some((a: string) => /^\d+=\/run\/clockwork-endpoint\/endpoint\.sock$/.test(a))).toBe(
      true,
    )
    const cli = (running.Mounts as any[]).find((m) => m.Source === path.dirname(claudeCode.locate()!))
    expect(cli).toMatchObject({ RW: false })
    expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await vi.waitFor(() => expect(harnessContainers(root)).toEqual([]), { timeout: 20_000, interval: 50 })
    const run = await settledRun(c, runId)
    expect(run.run.status).toBe('cancelled')
    // The run is marked cancelled at once; its folder goes when the harness has cleaned up.
    await vi.waitFor(() => expect(readdirSync(root).filter((f) => f.startsWith('.harness-'))).toEqual([]), {
      timeout: 10_000,
      interval: 100,
    })
  }, 120_000)

  it('runs OpenCode there too: its bash writes in the folder, through the same relay', async () => {
    if (!openCode.locate()) throw new Error('OpenCode is not installed: npm run harness:install opencode')
    const c = team.member.client
    const job = await dockerHarnessJob(c, 'oc-boxed', 'harness-box-oc', '', 'opencode')
    const run = await runWithReplies(
      agent,
      c,
      job,
      'oc-boxed',
      toolUse('bash', {
        command: 'echo opencode-in-box > oc.txt && cat oc.txt && pwd',
        description: 'write',
      }),
      { text: 'Wrote it.' },
    )
    expect(run.run.status, run.run.error).toBe('success')
    const [write] = bashParts(run)
    expect(JSON.stringify(write.output)).toContain('opencode-in-box')
    expect(JSON.stringify(write.output)).toContain('/workspace')
    const root = await envRoot('harness-box-oc')
    expect(readFileSync(path.join(root, 'oc.txt'), 'utf8')).toBe('opencode-in-box\n')
    expect(run.run.usage.costUsd).toBeGreaterThan(0)
  }, 120_000)
})
