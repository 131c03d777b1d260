/**
 * The run-code tool end to end: the real server, the real Anthropic provider against the fake
 * Messages API calling `run-code`, the real local sandbox (bubblewrap when usable). What the code
 * can and cannot reach, the bridge's checks, appAction's rights (never more than the caller's own
 * through the API), the org switch, and run-code inside an unattended job run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { createRunCodeTool } from '#server/agent/tools/run-code.ts'
import { cliRegistry } from '#server/cli/registered.ts'
import { usableBwrap } from '#server/sandbox/host-tools.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team, TeamPerson } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { runNow } from '#tests/support/runs.ts'

const J = '/_agent-native/jobs'
const KEY = 'sk-ant-deployment-runcode-0099'
const PLANTED = 'planted-server-secret-7c1e'
const bwrap = await usableBwrap()
const cliOffered = (await cliRegistry().describe()).some((c) => c.name === 'rg' && c.available)

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
let outside: string

beforeAll(async () => {
  process.env.CLOCKWORK_PLANTED_SECRET = PLANTED
  outside = mkdtempSync(path.join(tmpdir(), 'clockwork-e2e-outside-'))
  writeFileSync(path.join(outside, 'secret.txt'), PLANTED)
  agent = await startAgentApp({ key: KEY })
  ;({ app, team, fake } = agent)
})
afterAll(async () => {
  delete process.env.CLOCKWORK_PLANTED_SECRET
  rmSync(outside, { recursive: true, force: true })
  await agent?.close()
})
beforeEach(() => {
  fake.requests.length = 0
})

/** Has `person` ask in chat while the fake model calls run-code with `code`; returns the tool's output. */
async function runViaChat(person: TeamPerson, code: string, timeoutMs?: number) {
  const marker = `run-${Math.random().toString(36).slice(2)}`
  fake.replyWhen(
    marker,
    {
      content: [{ type: 'tool_use', name: 'run-code', input: { code, ...(timeoutMs ? { timeoutMs } : {}) } }],
    },
    { text: 'Ran it.' },
  )
  const turn = await sendChat(person.client, { message: userText(`please compute ${marker}`) })
  expect(turn.status).toBe(200)
  const [step] = toolParts(turn.reply, 'run-code')
  expect(step?.state, JSON.stringify(turn.reply?.parts)).toBe('output-available')
  return step.output as {
    ok: boolean
    stdout: string
    stderr: string
    exitCode: number | null
    timedOut: boolean
    durationMs: number
    error?: any
  }
}

describe('run-code through the agent', () => {
  it('is offered to the model beside the other tools, and its result reaches the model', async () => {
    const out = await runViaChat(
      team.member,
      `const xs = [3, 1, 2]; console.log(xs.sort().join(','), await Promise.resolve(42))`,
    )
    expect(out).toMatchObject({ ok: true, stdout: '1,2,3 42\n', stderr: '', exitCode: 0, timedOut: false })
    const tools = fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)
    expect(tools).toContain('run-code')
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('1,2,3 42')
  })

  it('the code sees no server secret: not in its env, not in the module', async () => {
    const out = await runViaChat(
      team.member,
      `import fs from 'node:fs'
       console.log(JSON.stringify(process.env))
       console.log(fs.readFileSync(new URL(import.meta.url), 'utf8'))`,
    )
    expect(out.stdout).not.toContain(PLANTED)
    expect(out.stdout).not.toContain(KEY)
    expect(out.stdout).not.toMatch(/DATABASE_URL|BETTER_AUTH_SECRET|ANTHROPIC/)
  })

  it('cannot read /etc/shadow or a file outside its temp dir, nor write outside it', async () => {
    const target = path.join(outside, 'written.txt')
    const out = await runViaChat(
      team.member,
      `import fs from 'node:fs'
       for (const f of ['/etc/shadow', ${JSON.stringify(path.join(outside, 'secret.txt'))}]) {
         try { console.log('READ', fs.readFileSync(f, 'utf8')) } catch (e) { console.log('read denied', e.code) }
       }
       try { fs.writeFileSync(${JSON.stringify(target)}, 'x'); console.log('WROTE') } catch (e) { console.log('write denied', e.code) }`,
    )
    expect(out.stdout).not.toContain('READ')
    expect(out.stdout).not.toContain('WROTE')
    expect(out.stdout.match(/denied/g)).toHaveLength(3)
  })

  it('cannot spawn a child process', async () => {
    const out = await runViaChat(
      team.member,
      `const cp = await import('node:child_process')
       try { console.log('SPAWNED', cp.execSync('id').toString()) } catch (e) { console.log('spawn denied', e.code) }`,
    )
    expect(out.stdout).toBe('spawn denied ERR_ACCESS_DENIED\n')
  })

  it.skipIf(!bwrap)(
    'cannot connect to Postgres on 127.0.0.1:5432 (bubblewrap; skipped when unusable)',
    async () => {
      const out = await runViaChat(
        team.member,
        `const net = await import('node:net')
       await new Promise((done) => {
         const s = net.connect(5432, '127.0.0.1')
         s.on('connect', () => { console.log('CONNECTED'); s.destroy(); done() })
         s.on('error', (e) => { console.log('refused', e.code); done() })
       })`,
      )
      expect(out.stdout).toBe('refused ECONNREFUSED\n')
    },
  )

  // How soon past the deadline it comes back is a figure of `npm run bench:sandbox`, not a stopwatch here.
  it('an endless loop is stopped at its timeout and comes back timedOut, with its duration', async () => {
    const out = await runViaChat(team.member, 'while (true) {}', 1_000)
    expect(out).toMatchObject({ ok: true, timedOut: true, exitCode: null })
    expect(out.durationMs).toBeGreaterThanOrEqual(1_000) // ran until the timeout, not stopped early
  })

  it('10 MB of output is capped with a visible marker', async () => {
    const out = await runViaChat(team.member, `process.stdout.write('y'.repeat(10 * 1024 * 1024))`)
    expect(out.stdout.length).toBeLessThan(100 * 1024)
    expect(out.stdout).toMatch(/… truncated/)
  })

  it('a bridge call with a forged token gets 401; a non-allowlisted action 403', async () => {
    const out = await runViaChat(
      team.member,
      `const http = await import('node:http')
       const status = await new Promise((resolve) => {
         const req = http.request({ socketPath: process.env.AGENT_NATIVE_BRIDGE_SOCKET, path: '/app-action', method: 'POST',
           headers: { authorization: 'Bearer forged' } }, (res) => resolve(res.statusCode))
         req.on('error', (e) => resolve(e.code))
         req.end(JSON.stringify({ name: 'clock' }))
       })
       console.log('forged', status)
       for (const name of ['delete-everything', 'run-code', 'constructor']) {
         try { await appAction(name, {}) } catch (e) { console.log(name, e.status) }
       }`,
    )
    expect(out.stdout).toBe('forged 401\ndelete-everything 403\nrun-code 403\nconstructor 403\n')
  })
})

describe('appAction acts with the caller’s rights, never more', () => {
  it('lists what the caller sees, creates as the caller, and cannot delete', async () => {
    const out = await runViaChat(
      team.member,
      `const made = await appAction('manage-jobs', { action: 'create', name: 'from-code', schedule: '0 9 * * *', instructions: 'Made by code' })
       console.log(made.job.name, made.job.createdBy)
       const listed = await appAction('manage-jobs', { action: 'list' })
       console.log(JSON.stringify(listed.jobs.map((j) => j.name).sort()))
       try { await appAction('manage-jobs', { action: 'delete', id: made.job.id }) } catch (e) { console.log('delete', e.status) }
       const clock = await appAction('clock', {})
       console.log(typeof clock.now)`,
    )
    expect(out.stderr).toBe('')
    const lines = out.stdout.trim().split('\n')
    expect(lines[0]).toBe(`from-code ${team.member.email}`)
    const viaApi = (await team.member.client.get(J)).body.jobs.map((j: { name: string }) => j.name).sort()
    expect(JSON.parse(lines[1]!)).toEqual(viaApi)
    expect(lines.slice(2)).toEqual(['delete 403', 'string'])
  })

  it("cannot touch another person's personal job (404) or change a shared job a member may not (403)", async () => {
    const personal = (
      await team.creator.client.post(J, {
        name: 'creators-own',
        schedule: '0 8 * * *',
        instructions: 'Private',
      })
    ).body.job
    const shared = (
      await team.creator.client.post(J, {
        name: 'team-report',
        schedule: '0 8 * * *',
        instructions: 'Shared',
        scope: 'shared',
      })
    ).body.job
    // Through the API first: the same person gets 404 and 403.
    expect((await team.member.client.patch(`${J}/${personal.id}`, { enabled: false })).status).toBe(404)
    expect((await team.member.client.patch(`${J}/${shared.id}`, { enabled: false })).status).toBe(403)
    const out = await runViaChat(
      team.member,
      `for (const id of ${JSON.stringify([personal.id, shared.id])}) {
         try { await appAction('manage-jobs', { action: 'update', id, enabled: false, instructions: 'Hijacked' }); console.log('CHANGED', id) }
         catch (e) { console.log(e.status) }
       }
       try { await appAction('workspace', { action: 'write', path: 'notes/x.md', content: 'x' }) } catch (e) { console.log('write', e.status) }`,
    )
    expect(out.stdout).toBe('404\n403\nwrite 403\n')
    for (const job of [personal, shared]) {
      const after = (await team.creator.client.get(`${J}/${job.id}`)).body.job
      expect(after).toMatchObject({ enabled: true, version: 1 })
    }
  })
})

describe('the cli tool through the agent', () => {
  it.skipIf(!cliOffered)(
    'lists the available CLIs and runs one without a shell (skipped when none can run here)',
    async () => {
      const marker = `cli-${Math.random().toString(36).slice(2)}`
      fake.replyWhen(
        marker,
        {
          content: [
            {
              type: 'tool_use',
              name: 'cli',
              input: { name: 'rg', args: ['-c', 'b'], input: 'a\nb\n$(id)\nbb\n' },
            },
          ],
        },
        { text: 'Counted.' },
      )
      const turn = await sendChat(team.member.client, { message: userText(marker) })
      const cli = fake.requests[0]!.body.tools.find((t: { name: string }) => t.name === 'cli')
      expect(cli.description).toMatch(/Available: .*rg \(/)
      expect(toolParts(turn.reply, 'cli')[0].output).toEqual({
        ok: true,
        name: 'rg',
        stdout: '2\n',
        stderr: '',
        exitCode: 0,
      })
    },
  )
})

describe('the org switch', () => {
  it('admins turn run-code and cli off: the model no longer gets them, and a call is refused', async () => {
    expect(
      (await team.admin.client.patch('/_agent-native/org-settings', { runCode: false, cli: false })).status,
    ).toBe(200)
    try {
      const marker = `off-${Math.random().toString(36).slice(2)}`
      fake.replyWhen(marker, { text: 'OK.' })
      expect((await sendChat(team.member.client, { message: userText(marker) })).status).toBe(200)
      const request = fake.requests.find((r) => JSON.stringify(r.body.messages).includes(marker))!
      const tools = request.body.tools.map((t: { name: string }) => t.name)
      expect(tools).toContain('manage-jobs')
      expect(tools).not.toContain('run-code')
      expect(tools).not.toContain('cli')
      expect(JSON.stringify(request.body.system)).not.toContain('run-code')
      // A conversation that began before the switch still holds the tool: its call is refused.
      const caller = { ...callerOf(team.member), orgId: team.orgId }
      const tool = createRunCodeTool({ caller, mode: 'chat' })
      const result = await tool.execute!({ code: 'console.log(1)' }, { toolCallId: 't', messages: [] })
      expect(result).toMatchObject({ ok: false, error: { status: 403 } })
    } finally {
      await team.admin.client.patch('/_agent-native/org-settings', { runCode: true, cli: true })
    }
  })
})

describe('run-code in an unattended job run', () => {
  let scheduler: RunningScheduler
  beforeAll(async () => {
    scheduler = await startScheduler({
      handle: app.server.db,
      executor: createAgentExecutor(),
      graceMs: 1_000,
    })
  })
  afterAll(async () => scheduler?.stop())

  it('runs code as the run-as user and keeps code and output in the transcript', async () => {
    const job = (
      await team.creator.client.post(J, {
        name: 'compute-in-run',
        schedule: '0 7 * * 1-5',
        instructions: 'Compute the answer (compute-in-run-marker)',
      })
    ).body.job
    fake.replyWhen(
      'compute-in-run-marker',
      {
        content: [
          {
            type: 'tool_use',
            name: 'run-code',
            input: {
              code: "const me = await appAction('manage-jobs', { action: 'list' }); console.log(6 * 7, me.jobs.length)",
            },
          },
        ],
      },
      { text: 'The answer is 42.' },
    )
    const got = await runNow(team.creator.client, job.id)
    expect(got.run.status).toBe('success')
    const creatorJobs = (await team.creator.client.get(J)).body.jobs.length
    const parts = got.transcript.flatMap((m: { parts: any[] }) => m.parts)
    const step = parts.find((p: { type: string }) => p.type === 'tool-run-code')
    expect(step.input.code).toContain('6 * 7')
    expect(step.output).toMatchObject({ ok: true, stdout: `42 ${creatorJobs}\n`, exitCode: 0 })
  })
})

function callerOf(person: TeamPerson) {
  return {
    userId: person.id,
    email: person.email,
    name: person.name,
    timezone: null,
    orgName: 'A',
    role: 'member' as const,
  }
}
