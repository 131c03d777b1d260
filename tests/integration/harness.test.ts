/**
 * Jobs whose agent is the real Claude Code CLI (pinned, `npm run harness:install claude-code`), run
 * in the job's environment against the fake model through the run's own endpoint: Run now and the
 * scheduler both fire it; its `Bash` writes a file into the environment; the steps, tokens and cost
 * land on the run; the deployment's key is nowhere in the sandbox; the policy denies and audits a
 * call; `maxCostUsd` stops it at its next model call; cancel leaves no process behind; a job's MCP
 * server is reached under its name without its secret in the folder, and a server that hands its
 * headers back shows the model and the transcript placeholders instead (decision 0426).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { snapshotName } from '#server/environments/bootstrap/snapshot.ts'
import { claudeCode } from '#server/harness/claude-code.ts'
import type { AgentApp } from '#tests/support/agent-app.ts'
import {
  heldReply,
  toolUse,
  type FakeAnthropic,
  type FakeReply,
  type FakeRequest,
} from '#tests/support/fake-anthropic.ts'
import { addOrgMcpServer, startTestMcpServer, type TestMcpServer } from '#tests/support/mcp-server.ts'
import type { Team } from '#tests/support/team.ts'
import { streamChat, toolOutputs } from '#tests/support/chat-stream.ts'
import { eventually } from '#tests/support/poll.ts'
import {
  ALLOW_ONE_HOST,
  bashParts,
  cliRequests,
  DENY_CURL,
  expectCurlDenied,
  expectPolicyHosts,
  expectWriteRun,
  harnessJob,
  runWithReplies,
  settledRun,
  startHarnessApp,
  startWaitingRun,
  WAIT_COMMAND,
} from '#tests/support/harness-runs.ts'
import { connectMachine } from '#tests/support/machine-client.ts'

// The deployment's key: planted so the sandbox can be searched for it.
const KEY = 'sk-ant-planted-harness-key-7Q9Z'
const MCP_TOKEN = 'mcp-secret-header-5521'
const REFLECTED_TOKEN = 'reflected-token-8Kq2'
const ECHOED_KEY = 'echoed-api-key-3Fv7'
const R = '/_agent-native/resources'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic
let mcp: TestMcpServer
let reflecting: TestMcpServer
// Environments' snapshots (taken after setup), searched for the MCP server's secret.
const snapshots = mkdtempSync(path.join(os.tmpdir(), 'clockwork-harness-snapshots-'))

beforeAll(async () => {
  mcp = await startTestMcpServer({ token: MCP_TOKEN })
  reflecting = await startTestMcpServer({ token: REFLECTED_TOKEN, reflect: true })
  agent = await startHarnessApp({
    key: KEY,
    environmentsDir: 'clockwork-harness-',
    scheduler: true,
    // The test's MCP servers live on 127.0.0.1: an admin may name such hosts.
    env: {
      INTEGRATIONS_ALLOW_HOSTS: `127.0.0.1:${mcp.port}, 127.0.0.1:${reflecting.port}`,
      ENVIRONMENT_SNAPSHOTS_DIR: snapshots,
    },
  })
  ;({ team, fake } = agent)
}, 120_000)
afterAll(async () => {
  await agent?.close()
  await mcp?.close()
  await reflecting?.close()
  rmSync(snapshots, { recursive: true, force: true })
})

/**
 * The member's job `name` in environment `env`, using the reflecting MCP server, which the admin
 * registers as `server.name` with `Bearer <REFLECTED_TOKEN>` (stored as the organisation secret
 * `server.secret`) and `server.headers`.
 */
async function reflectingJob(
  server: { name: string; secret: string; headers?: Record<string, unknown> },
  name: string,
  env: string,
) {
  await addOrgMcpServer(team.admin.client, { ...server, url: reflecting.url, token: REFLECTED_TOKEN })
  return harnessJob(team.member.client, name, env, { mcp: [server.name] })
}

const envRoot = (name: string) => {
  const base = path.join(agent.dir!, 'environments')
  const found = execFileSync('find', [base, '-maxdepth', '3', '-type', 'd', '-name', name], {
    encoding: 'utf8',
  })
  return found.trim().split('\n')[0]!
}

/** The member's builtin job `name` (`Task <name>: hand it on.`) in a new local environment `env`. */
async function builtinJobIn(name: string, env: string, fields: Record<string, unknown> = {}) {
  const c = team.member.client
  const definition = '---\nprovider: local\n---\nWork here.\n'
  expect((await c.put(`${R}/personal/environments/${env}.md`, definition)).status).toBe(201)
  const made = await c.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * 1-5',
    instructions: `Task ${name}: hand it on.`,
    environment: env,
    ...fields,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return made.body.job.id as string
}

/** Waits until the member's run `runId` reads as `expected` (its page's JSON, matched). */
const runReads = (runId: string, expected: Record<string, unknown>) =>
  vi.waitFor(
    async () => {
      const { run } = (await team.member.client.get(`/_agent-native/runs/${runId}`)).body
      expect(run).toMatchObject(expected)
    },
    { timeout: 20_000, interval: 50 },
  )

/** A model call of 20,000 tokens in and 2,000 out: $0.09 at Sonnet's prices. */
const BIG_CALL = { input_tokens: 20_000, output_tokens: 2_000 }

/**
 * Runs the member's harness job `name` (in environment `env`) until the CLI's second model call is
 * held unanswered, its first (BIG_CALL: $0.09) having run `echo <name>-once`; calls `whileHeld`
 * with the run's id, then lets the second call be answered with `answer`. Returns the run's id.
 */
async function heldSecondCall(
  name: string,
  env: string,
  answer: FakeReply,
  whileHeld: (runId: string) => Promise<void>,
): Promise<string> {
  const c = team.member.client
  const job = await harnessJob(c, name, env)
  const second = heldReply(answer)
  fake.replyWhen(
    `Task ${name}:`,
    { ...toolUse('Bash', { command: `echo ${name}-once`, description: 'once' }), usage: BIG_CALL },
    second.reply,
  )
  const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
  expect(started.status).toBe(202)
  const runId: string = started.body.run.id
  try {
    await vi.waitFor(() => expect(cliRequests(fake, name)).toHaveLength(2), { timeout: 60_000 })
    await whileHeld(runId)
  } finally {
    second.release()
  }
  return runId
}

describe('run_harness in chat', () => {
  it('shows the approval card for a command the policy asks about, and goes on once approved', async () => {
    const c = team.member.client
    const definition = '---\nprovider: local\npolicy:\n  commands:\n    ask: ["touch *"]\n---\nAsk first.\n'
    expect((await c.put(`${R}/personal/environments/harness-ask.md`, definition)).status).toBe(201)
    fake.replyWhen(
      'chat-harness-task',
      toolUse('run_harness', {
        harness: 'claude-code',
        environment: 'harness-ask',
        prompt: 'Task asked: touch approved.txt',
      }),
      { text: 'The harness made the file.' },
    )
    fake.replyWhen(
      'Task asked:',
      toolUse('Bash', { command: 'touch approved.txt && echo touched', description: 'touch' }),
      { text: 'Touched it.' },
    )
    const turn = streamChat(c, 'chat-harness-task')
    const pending = await eventually('the approval card', () =>
      toolOutputs(turn.chunks)
        .map((chunk) => (chunk.output as { approval?: { id: string; command: string } }).approval)
        .find(Boolean),
    )
    expect(pending.command).toBe('touch approved.txt && echo touched')
    // Nobody else may answer it.
    expect(
      (await team.admin.client.post(`/_agent-native/harness/approvals/${pending.id}`, { approved: true }))
        .status,
    ).toBe(404)
    expect((await c.post(`/_agent-native/harness/approvals/${pending.id}`, { approved: true })).status).toBe(
      200,
    )
    const chunks = await turn.done
    const final = toolOutputs(chunks).filter((chunk) => !chunk.preliminary)
    const result = final.map((chunk) => chunk.output as any).find((o) => o.harness === 'claude-code')
    expect(result.ok, JSON.stringify(result)).toBe(true)
    const bash = result.steps.find((p: any) => p.type === 'tool-Bash')
    expect(JSON.stringify(bash.output)).toContain('touched')
    const rows = await queryRows<{ decision: string }>(
      agent.app.server.db.db,
      sql`select decision from environment_audit where subject = 'touch approved.txt && echo touched'`,
    )
    expect(rows).toEqual([{ decision: 'approved' }])
  }, 120_000)
})

describe('run_harness in a job run', () => {
  it("spends the run's key within what the job's cap leaves, and its cost is the run's", async () => {
    // A member's builtin job capped at $0.05 hands its work to Claude Code: before, the harness ran
    // uncapped on the chat's key rule and its spending was nowhere in the run's cost.
    const c = team.member.client
    const jobId = await builtinJobIn('delegates', 'harness-in-run', { maxCostUsd: 0.05 })
    fake.replyWhen(
      'Task delegates:',
      toolUse('run_harness', {
        harness: 'claude-code',
        environment: 'harness-in-run',
        prompt: 'Inner delegated: echo once',
      }),
      { text: 'The harness did it.' },
    )
    // 20,000 in and 2,000 out at Sonnet prices: $0.09, past the cap on the harness's first call.
    const big = { input_tokens: 20_000, output_tokens: 2_000 }
    fake.replyWhen(
      'Inner delegated:',
      { ...toolUse('Bash', { command: 'echo inner-once', description: 'once' }), usage: big },
      { text: 'second call: must never be sent' },
    )
    const started = await c.post(`/_agent-native/jobs/${jobId}/run`)
    expect(started.status).toBe(202)
    const { run } = await settledRun(c, started.body.run.id)
    const inner = fake.requests.filter((r) =>
      JSON.stringify(r.body.messages ?? []).includes('Inner delegated:'),
    )
    const fromCli = inner.filter((r) => !JSON.stringify(r.body.messages ?? []).includes('Task delegates:'))
    // The harness's second call was refused at the endpoint: the cap held inside the harness.
    expect(fromCli).toHaveLength(1)
    expect(fromCli[0]!.headers['x-api-key']).toBe(KEY)
    // The run stopped over its cap, its cost the harness's $0.09 and its own steps.
    expect(run.status).toBe('error')
    expect(run.error).toContain('maxCostUsd')
    expect(run.usage.costUsd).toBeGreaterThan(0.09)
    expect(run.usage.inputTokens).toBeGreaterThan(20_000)
  }, 120_000)

  it("shows the harness's calls on the running run as each ends, with the run's own steps, counted once", async () => {
    const c = team.member.client
    const jobId = await builtinJobIn('delegates-live', 'harness-live-in-run')
    // The run's step (100 in, 50 out) starts the harness, then it says it is done (30 in, 5 out).
    fake.replyWhen(
      'Task delegates-live:',
      {
        ...toolUse('run_harness', {
          harness: 'claude-code',
          environment: 'harness-live-in-run',
          prompt: 'Inner live: echo once',
        }),
        usage: { input_tokens: 100, output_tokens: 50 },
      },
      { text: 'The harness did it.', usage: { input_tokens: 30, output_tokens: 5 } },
    )
    // The harness's first call (20,000 in, 2,000 out: $0.09) ends; its second is held.
    const second = heldReply({ text: 'Inner done.', usage: { input_tokens: 10, output_tokens: 5 } })
    fake.replyWhen(
      'Inner live:',
      { ...toolUse('Bash', { command: 'echo inner-live', description: 'once' }), usage: BIG_CALL },
      second.reply,
    )
    const fromCli = () =>
      fake.requests.filter((r) => {
        const said = JSON.stringify(r.body.messages ?? [])
        return said.includes('Inner live:') && !said.includes('Task delegates-live:')
      })
    const started = await c.post(`/_agent-native/jobs/${jobId}/run`)
    expect(started.status).toBe(202)
    const runId: string = started.body.run.id
    try {
      await vi.waitFor(() => expect(fromCli()).toHaveLength(2), { timeout: 60_000 })
      // Before, the harness's spending reached the run's tokens only with the step that ran it.
      await runReads(runId, { status: 'running', usage: { inputTokens: 20_000, outputTokens: 2_000 } })
    } finally {
      second.release()
    }
    // The harness's two calls, the run's two steps: each counted once ($0.090105 + $0.00105 + $0.000165).
    const { run } = await settledRun(c, runId)
    expect(run.status, run.error).toBe('success')
    expect(run.usage).toMatchObject({ inputTokens: 20_140, outputTokens: 2_060, costUsd: 0.09132 })
  }, 120_000)
})

describe('a job with harness: claude-code', () => {
  it('needs an environment: 400 naming harness, nothing stored', async () => {
    const c = team.member.client
    const res = await c.post('/_agent-native/jobs', {
      name: 'no-env',
      schedule: '0 7 * * 1-5',
      instructions: 'x',
      harness: 'claude-code',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('harness')
    expect((await c.get('/_agent-native/jobs')).body.jobs.map((j: any) => j.name)).not.toContain('no-env')
  })

  it('runs on Run now: Bash writes a file in the environment, steps, tokens and cost on the run, no key inside', async () => {
    const c = team.member.client
    const job = await harnessJob(c, 'writer', 'harness-work')
    await expectWriteRun(agent, c, job, 'writer', KEY)
    const root = envRoot('harness-work')
    expect(readFileSync(path.join(root, 'writer.txt'), 'utf8')).toBe('writer-was-here\n')
    // Nothing of the run's projection is left in the folder.
    expect(readdirSync(root).filter((f) => f.startsWith('.harness-'))).toEqual([])
  }, 120_000)

  it('is fired by the scheduler too', async () => {
    const c = team.member.client
    const job = await harnessJob(c, 'timed', 'harness-timed')
    fake.replyWhen(
      'Task timed:',
      toolUse('Bash', { command: 'echo fired-by-schedule > timed.txt', description: 'write' }),
      { text: 'Done on schedule.' },
    )
    // Due now by the database clock; the job change wakes the scheduler (LISTEN/NOTIFY).
    await agent.app.server.db.db.execute(
      sql`update jobs set next_run_at = now() - interval '1 second' where id = ${job.id}`,
    )
    await agent.app.server.db.db.execute(sql`select pg_notify('clockwork_jobs_changed', '')`)
    let runId = ''
    await vi.waitFor(
      async () => {
        const runs = (await c.get(`/_agent-native/jobs/${job.id}/runs`)).body.runs as any[]
        expect(runs.length).toBeGreaterThan(0)
        runId = runs[0].id
        expect(runs[0].trigger).toBe('schedule')
      },
      { timeout: 60_000, interval: 250 },
    )
    const run = await settledRun(c, runId)
    expect(run.run.status, run.run.error).toBe('success')
    expect(readFileSync(path.join(envRoot('harness-timed'), 'timed.txt'), 'utf8')).toBe('fired-by-schedule\n')
    expect(JSON.stringify(bashParts(run)[0].output)).toContain('stdout')
  }, 120_000)

  /**
   * Runs job `name` whose CLI runs `command` in an environment holding the member's secret `secret`
   * (`value`); returns the settled run and the bodies of the model calls its CLI made.
   */
  async function runWithSecret(name: string, secret: string, value: string, command: string) {
    const c = team.member.client
    const saved = await c.put(`/_agent-native/secrets/personal/${secret}`, JSON.stringify({ value }), {
      'content-type': 'application/json',
    })
    expect(saved.status).toBe(200)
    const job = await harnessJob(c, name, `harness-${name}`, { envYaml: `secrets: [${secret}]\n` })
    const replies = [toolUse('Bash', { command, description: 'use it' }), { text: 'Used the secret.' }]
    const run = await runWithReplies(agent, c, job, name, ...replies)
    expect(run.run.status, run.run.error).toBe('success')
    return { run, sent: cliRequests(fake, name).map((r) => r.body) }
  }

  it("gives commands the environment's secrets but keeps them from the model and the transcript", async () => {
    const value = 'deploy-secret-value-8812'
    const command = '[ -n "$DEPLOY_TOKEN" ] && echo "token=$DEPLOY_TOKEN"'
    const { run, sent } = await runWithSecret('secretive', 'DEPLOY_TOKEN', value, command)
    expect(JSON.stringify(bashParts(run)[0].output)).toContain('token=••••')
    expect(JSON.stringify(run)).not.toContain(value)
    expect(sent.length).toBe(2)
    expect(JSON.stringify(sent)).toContain('token=••••')
    expect(JSON.stringify(sent)).not.toContain(value)
  }, 120_000)

  it('keeps a secret of several lines with quotes (a private key) from the model and the transcript', async () => {
    // Both were redacted as JSON text, where the key's newlines read `\n` and its quotes `\"`: a
    // key a command printed reached the provider and the run page whole (an outside review's finding).
    const value =
      '-----BEGIN PRIVATE KEY-----\nMIIEvQ-pem-body-6620\n"quoted" \\ tail-4471\n-----END PRIVATE KEY-----'
    const { run, sent } = await runWithSecret(
      'keyholder',
      'SIGNING_KEY',
      value,
      'printf "key=%s\\n" "$SIGNING_KEY"',
    )
    // Soft: the transcript and the model calls are two paths, each checked whatever the other did.
    expect.soft(JSON.stringify(bashParts(run)[0].output)).toContain('key=••••')
    expect.soft(JSON.stringify(sent)).toContain('key=••••')
    for (const piece of ['pem-body-6620', 'tail-4471']) {
      expect.soft(JSON.stringify(sent)).not.toContain(piece)
      expect.soft(JSON.stringify(run)).not.toContain(piece)
    }
  }, 120_000)

  it("reaches the hosts the environment's policy names through the filtering proxy, and no others", async () => {
    const c = team.member.client
    const job = await harnessJob(c, 'hosts', 'harness-hosts', { envYaml: ALLOW_ONE_HOST })
    await expectPolicyHosts(agent, c, job, 'hosts')
  }, 120_000)

  it('a Bash call the policy denies is refused, audited, and the run says so', async () => {
    const c = team.member.client
    const job = await harnessJob(c, 'denied', 'harness-deny', { envYaml: DENY_CURL })
    await expectCurlDenied(agent, c, job, 'denied')
  }, 120_000)

  it('maxCostUsd stops the run at its next model call, with the reason', async () => {
    const c = team.member.client
    const job = await harnessJob(c, 'costly', 'harness-cost', { maxCostUsd: 0.01 })
    const big = { input_tokens: 10_000, output_tokens: 1_000 } // $0.045 at Sonnet prices
    fake.replyWhen(
      'Task costly:',
      { ...toolUse('Bash', { command: 'echo step-one', description: 'one' }), usage: big },
      { text: 'never sent' },
    )
    const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
    const run = await settledRun(c, started.body.run.id)
    expect(run.run.status).toBe('error')
    expect(run.run.error).toContain('maxCostUsd')
    expect(cliRequests(fake, 'costly').length).toBe(1) // the second call never reached the provider
    expect(run.run.usage.costUsd).toBeGreaterThan(0.01)
  }, 120_000)

  it("shows each model call's tokens on the running run as the call ends, and counts them once", async () => {
    const runId = await heldSecondCall(
      'live-usage',
      'harness-live-usage',
      { text: 'Done after the hold.', usage: { input_tokens: 10, output_tokens: 5 } },
      async (running) => {
        // Before, a harness's calls reached the run's tokens only when it ended: none while it ran.
        const model = expect.stringMatching(/^claude-code/)
        const usage = { inputTokens: 20_000, outputTokens: 2_000, costUsd: 0.09, model }
        await runReads(running, { status: 'running', usage })
      },
    )
    // Counted once: the first call's tokens and the second's, not the first's again.
    const { run } = await settledRun(team.member.client, runId)
    expect(run.status, run.error).toBe('success')
    expect(run.usage).toMatchObject({ inputTokens: 20_010, outputTokens: 2_005, costUsd: 0.090105 })
  }, 120_000)

  it('counts a call cut off by a cancel before its answer began: its body at four characters a token', async () => {
    // The run is cancelled while its second call is held, unanswered: the provider has that call and
    // bills its input (decision 0533).
    const c = team.member.client
    await heldSecondCall('cut-off', 'harness-cut-off', { text: 'never sent' }, async (runId) => {
      await runReads(runId, { status: 'running', usage: { inputTokens: 20_000 } })
      expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
      // Before, the run kept the first call alone: 20,000 in, $0.09.
      const held = Math.ceil(cliRequests(fake, 'cut-off')[1]!.bodyChars / 4)
      await runReads(runId, {
        status: 'cancelled',
        usage: { inputTokens: 20_000 + held, outputTokens: 2_000 },
      })
      const { run } = (await c.get(`/_agent-native/runs/${runId}`)).body
      expect(run.usage.costUsd).toBeGreaterThan(0.09)
    })
  }, 120_000)

  it('cancel leaves no process of the run behind', async () => {
    const c = team.member.client
    const job = await harnessJob(c, 'sleeper', 'harness-cancel')
    const runId = await startWaitingRun(agent, c, job, 'sleeper')
    // Every process of the run names the environment's folder or the sleep (bwrap, socat, the CLI, its shell).
    const inRun = () =>
      execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(WAIT_COMMAND) || l.includes('/harness-cancel'))
    await vi.waitFor(
      async () => {
        const now = (await c.get(`/_agent-native/runs/${runId}`)).body
        expect(now.run.status, JSON.stringify(now)).toBe('running')
        expect(inRun().some((l) => l.includes(WAIT_COMMAND))).toBe(true)
      },
      { timeout: 60_000, interval: 200 },
    )
    expect((await c.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await vi.waitFor(() => expect(inRun()).toEqual([]), { timeout: 20_000, interval: 50 })
    const run = await settledRun(c, runId)
    expect(run.run.status).toBe('cancelled')
  }, 120_000)

  it("reaches the job's MCP server under its name; its secret header is in neither the folder nor the snapshot", async () => {
    const c = team.member.client
    await addOrgMcpServer(team.admin.client, {
      name: 'handbook',
      url: mcp.url,
      secret: 'HANDBOOK_TOKEN',
      token: MCP_TOKEN,
    })
    // A setup step, so the environment has a snapshot.
    const job = await harnessJob(c, 'mcpuser', 'harness-mcp', {
      mcp: ['handbook'],
      envYaml: 'setup:\n  - "echo built > built.txt"\n',
    })
    fake.replyWhen(
      'Task mcpuser:',
      toolUse('mcp__handbook__lookup_docs', { query: 'deploys' }),
      toolUse('Bash', {
        command: 'echo found=$(grep -rl "mcp-secret-heade[r]" . 2>/dev/null | wc -l)',
        description: 'look',
      }),
      { text: 'Deploys happen on Tuesdays.' },
    )
    const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
    const run = await settledRun(c, started.body.run.id)
    expect(run.run.status, run.run.error).toBe('success')
    expect(mcp.calls).toContainEqual(
      expect.objectContaining({ tool: 'lookup_docs', authorization: `Bearer ${MCP_TOKEN}` }),
    )
    const parts = (run.transcript as any[]).flatMap((m) => m.parts ?? [])
    const lookup = parts.find((p: any) => p.type === 'tool-mcp__handbook__lookup_docs')
    expect(JSON.stringify(lookup.output)).toContain('deploys happen on Tuesdays')
    expect(JSON.stringify(bashParts(run)[0].output)).toContain('found=0')
    const root = envRoot('harness-mcp')
    const grep = spawnSync('grep', ['-rl', MCP_TOKEN, root], { encoding: 'utf8' })
    expect(grep.stdout).toBe('')
    expect(grep.status).toBe(1)
    const [envRow] = await queryRows<{ id: string }>(
      agent.app.server.db.db,
      sql`select id from environments where name = 'harness-mcp'`,
    )
    const tarball = path.join(snapshots, snapshotName(envRow!.id))
    expect(existsSync(tarball)).toBe(true)
    const snapshot = gunzipSync(readFileSync(tarball)).toString('latin1')
    expect(snapshot).toContain('built.txt') // the snapshot is really the folder's
    expect(snapshot).not.toContain(MCP_TOKEN)
  }, 120_000)

  it("hides the MCP server's header values from the model and the transcript when the server hands them back", async () => {
    const c = team.member.client
    const job = await reflectingJob(
      { name: 'reflector', secret: 'REFLECTED_TOKEN' },
      'reflectuser',
      'harness-reflect',
    )
    const run = await runWithReplies(agent, c, job, 'reflectuser', toolUse('mcp__reflector__whoami', {}), {
      text: 'It says who I am.',
    })
    expect(run.run.status, run.run.error).toBe('success')
    const parts = (run.transcript as any[]).flatMap((m) => m.parts ?? [])
    const whoami = parts.find((p: any) => p.type === 'tool-mcp__reflector__whoami')
    expect(JSON.stringify(whoami.output)).toContain('[redacted header Authorization]')
    expect(JSON.stringify(run)).not.toContain(REFLECTED_TOKEN)
    // What the CLI sent the model: the result (it passes on the structured content) redacted, and no token anywhere.
    const requests = cliRequests(fake, 'reflectuser').map((r) => r.body)
    const results = requests
      .flatMap((body) => body.messages)
      .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((block: any) => block.type === 'tool_result')
    expect(JSON.stringify(results)).toContain('[redacted header Authorization]')
    const seen = JSON.stringify(requests)
    expect(seen).not.toContain(REFLECTED_TOKEN)
  }, 120_000)

  it("hides the MCP server's header values from the sandbox, in a streamed answer and a plain one (decision 0446)", async () => {
    const c = team.member.client
    const job = await reflectingJob(
      { name: 'echoer', secret: 'ECHOED_TOKEN', headers: { 'X-Api-Key': ECHOED_KEY } },
      'echouser',
      'harness-echo',
    )
    // A command in the sandbox asks the run's relay itself: whoami answers in server-sent events,
    // whoami_breaks with a plain HTTP 500 quoting the headers.
    const call = (tool: string, file: string) =>
      `curl -s -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' ` +
      `--data '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":{}}}' ` +
      `"$ANTHROPIC_BASE_URL/mcp/echoer" > ${file}`
    const run = await runWithReplies(
      agent,
      c,
      job,
      'echouser',
      toolUse('Bash', {
        command: `${call('whoami', 'sse.txt')}; ${call('whoami_breaks', 'plain.txt')}`,
        description: 'ask',
      }),
      { text: 'Asked.' },
    )
    expect(run.run.status, run.run.error).toBe('success')
    const root = envRoot('harness-echo')
    const streamed = readFileSync(path.join(root, 'sse.txt'), 'utf8')
    const plain = readFileSync(path.join(root, 'plain.txt'), 'utf8')
    expect(streamed).toContain('event: message')
    expect(streamed).toContain('[redacted header Authorization]')
    expect(streamed).toContain('[redacted header X-Api-Key]')
    expect(plain).toContain('upstream refused')
    expect(plain).toContain('[redacted header Authorization]')
    for (const seen of [streamed, plain]) {
      expect(seen).not.toContain(REFLECTED_TOKEN)
      expect(seen).not.toContain(ECHOED_KEY)
    }
  }, 120_000)
})

describe('a harness job in a machine environment', () => {
  let machine: Awaited<ReturnType<typeof connectMachine>> | undefined
  afterAll(async () => {
    await machine?.close()
  })

  it("runs the CLI on the person's machine through the same per-run endpoint", async () => {
    const c = team.member.client
    // The person's machine has the CLI installed where this variable says.
    process.env.CLAUDE_CODE_PATH = claudeCode.locate()!
    machine = await connectMachine(c, agent.app.baseUrl, 'laptop')
    const dir = machine.dir
    const definition =
      '---\nprovider: machine:laptop\npolicy:\n  commands:\n    deny: ["rm *"]\n---\nMy laptop.\n'
    expect((await c.put(`${R}/personal/environments/laptop.md`, definition)).status).toBe(201)
    const job = await c.post('/_agent-native/jobs', {
      name: 'on-laptop',
      schedule: '0 7 * * 1-5',
      instructions: 'Task on-laptop: do the thing.',
      environment: 'laptop',
      harness: 'claude-code',
    })
    expect(job.status).toBe(201)
    fake.replyWhen(
      'Task on-laptop:',
      toolUse('Bash', {
        command: 'echo from-the-laptop > laptop.txt && cat laptop.txt',
        description: 'write',
      }),
      toolUse('Bash', { command: 'rm laptop.txt', description: 'remove' }),
      { text: 'Wrote it on the laptop.' },
    )
    const started = await c.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    const run = await settledRun(c, started.body.run.id)
    expect(run.run.status, run.run.error).toBe('success')
    expect(readFileSync(path.join(dir, 'laptop.txt'), 'utf8')).toBe('from-the-laptop\n')
    const [write, remove] = bashParts(run)
    expect(JSON.stringify(write.output)).toContain('from-the-laptop')
    expect(remove.state).toBe('output-error') // the environment's policy, through the same hook
    expect(run.run.usage.costUsd).toBeGreaterThan(0)
    expect(cliRequests(fake, 'on-laptop').every((r: FakeRequest) => r.headers['x-api-key'] === KEY)).toBe(
      true,
    )
    expect(readdirSync(dir).filter((f) => f.startsWith('.harness-'))).toEqual([])
  }, 120_000)
})
