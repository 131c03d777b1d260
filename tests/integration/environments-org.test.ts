/**
 * The organisation's layer over environments (Settings → Agent): commands on/off, allowed
 * runtimes, default limits and extra deny patterns that a member's definition cannot loosen; and
 * a job run without an environment working in a scratch folder of its own, removed after the run.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { runNow } from '#tests/support/runs.ts'

const KEY = 'sk-ant-deployment-env-org-0007'
const R = '/_agent-native/resources'
const SETTINGS = '/_agent-native/org-settings'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
let dir: string

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, environmentsDir: 'clockwork-envs-org-', scheduler: true })
  ;({ app, team, fake } = agent)
  dir = agent.dir!
}, 240_000)
afterAll(() => agent?.close())
beforeEach(() => {
  fake.requests.length = 0
})

async function runCommands(commands: string[], environment = 'loose') {
  fake.reply(...commands.map((command) => toolUse('run_command', { environment, command })), {
    text: 'Done.',
  })
  const turn = await sendChat(team.member.client, { message: userText('run them') })
  return toolParts(turn.reply, 'run_command').map((p) => p.output)
}

/** The turn's run_command parts; no closing text is queued, as an approval card ends the turn. */
async function runCommandsRaw(commands: string[], environment = 'loose') {
  fake.reply(...commands.map((command) => toolUse('run_command', { environment, command })))
  const turn = await sendChat(team.member.client, { message: userText('run them') })
  return toolParts(turn.reply, 'run_command')
}

describe('org exec controls', () => {
  it('are set by owners and admins, read by members, and checked field by field', async () => {
    const controls = {
      execDeny: ['git push *'],
      execRuntimes: ['node'],
      execLimits: { timeoutSeconds: 2 },
    }
    expect((await team.member.client.patch(SETTINGS, controls)).status).toBe(403)
    const bad = await team.admin.client.patch(SETTINGS, { execLimits: { memoryMb: 10 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('execLimits.memoryMb')
    expect((await team.admin.client.patch(SETTINGS, { execRuntimes: ['ruby'] })).body.error.field).toBe(
      'execRuntimes.0',
    )
    const saved = await team.admin.client.patch(SETTINGS, controls)
    expect(saved.status).toBe(200)
    expect(saved.body.settings).toMatchObject({ exec: true, ...controls })
    const seen = await team.member.client.get(SETTINGS)
    expect(seen.body).toMatchObject({ settings: controls, canEdit: false })
    const page = await team.member.client.get('/settings/agent')
    expect(page.body).toContain('Always denied')
    expect(page.body).toContain('git push *')
    expect(page.body).not.toContain('Save command rules')
    expect((await team.admin.client.get('/settings/agent')).body).toContain('Save command rules')
  })

  it("apply over a member's environment that allows everything: deny patterns, refused runtimes, default limits", async () => {
    const loose =
      '---\npolicy:\n  commands:\n    allow: ["git *", "python3 *", "sleep *"]\n  default: allow\n---\n'
    expect((await team.member.client.put(`${R}/personal/environments/loose.md`, loose)).status).toBe(201)
    const [push, python, node, sleep] = await runCommands([
      'git push origin main',
      'echo hi && python3 --version',
      'node --version',
      'sleep 5',
    ])
    expect(push).toMatchObject({ ok: false, error: { code: 'denied' }, rule: 'org deny: git push *' })
    expect(python).toMatchObject({ ok: false, error: { code: 'denied' }, rule: 'org deny: python3 *' })
    expect(node).toMatchObject({ ok: true, exitCode: 0 }) // node is an allowed runtime
    expect(sleep).toMatchObject({ ok: true, timedOut: true }) // the org's 2 s default limit
    const audit = await queryRows<{ subject: string; decision: string; rule: string | null }>(
      app.server.db.db,
      sql`select subject, decision, rule from environment_audit where subject = 'git push origin main'`,
    )
    expect(audit).toEqual([
      { subject: 'git push origin main', decision: 'denied', rule: 'org deny: git push *' },
    ])
  })

  it('are not dodged by spellings the shell expands or hides (run_command in chat)', async () => {
    const [trapped, script] = await runCommands([
      'trap "git push origin main" EXIT',
      'script -q -c "git push origin main" /dev/null',
    ])
    expect(trapped).toMatchObject({ ok: false, error: { code: 'denied' }, rule: 'org deny: git push *' })
    expect(script).toMatchObject({ ok: false, error: { code: 'denied' }, rule: 'org deny: git push *' })
    // What the judge cannot read is asked, never allowed: in chat it waits for the person.
    for (const hidden of ['x=push; git $x origin main', `awk 'BEGIN{system("touch awk-ran.txt")}'`]) {
      const [part] = await runCommandsRaw([hidden])
      expect([hidden, part.state]).toEqual([hidden, 'approval-requested'])
      fake.requests.length = 0
    }
    const [row] = await queryRows<{ dir: string }>(
      app.server.db.db,
      sql`select dir from environments where name = 'loose'`,
    )
    expect(existsSync(path.join(dir, 'environments', row!.dir, 'awk-ran.txt'))).toBe(false)
  })

  it('switched off, take run_command out of the tool list and refuse commands', async () => {
    expect((await team.admin.client.patch(SETTINGS, { exec: false })).status).toBe(200)
    await sendChat(team.member.client, { message: userText('hello') })
    const tools = fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)
    expect(tools).not.toContain('run_command')
    expect(tools).toContain('write_file')
    const { operate } = await import('#server/environments/operations/operations.ts')
    const { loadRunCaller } = await import('#server/agent/run-caller.ts')
    const caller = (await loadRunCaller(team.member.id, team.orgId))!
    await expect(
      operate(caller, { name: 'loose' }, 'run_command', { command: 'echo hi', mode: 'person' }),
    ).rejects.toMatchObject({ status: 403, code: 'exec_disabled' })
    expect((await team.admin.client.patch(SETTINGS, { exec: true })).status).toBe(200)
  })
})

describe("a member's setup", () => {
  const rootOf = async (name: string) => {
    const [row] = await queryRows<{ dir: string }>(
      app.server.db.db,
      sql`select dir from environments where name = ${name}`,
    )
    return path.join(dir, 'environments', row!.dir)
  }
  const define = async (name: string, setup: string[]) =>
    expect(
      (
        await team.member.client.put(
          `${R}/personal/environments/${name}.md`,
          ['---', 'setup:', ...setup.map((s) => `  - ${JSON.stringify(s)}`), '---', 'x'].join('\n'),
        )
      ).status,
    ).toBe(201)
  const useIt = async (name: string) => {
    fake.reply(toolUse('write_file', { environment: name, path: 'note.txt', content: 'x' }), {
      text: 'Done.',
    })
    const turn = await sendChat(team.member.client, { message: userText(`use ${name}`) })
    return toolParts(turn.reply, 'write_file')[0].output
  }

  it('is refused a command on the org deny list and a refused runtime, and each step is audited', async () => {
    await define('setup-deny', ['touch first.txt', 'touch pushed.txt && git push origin main'])
    const denied = await useIt('setup-deny')
    expect(denied).toMatchObject({ ok: false, error: { status: 400, field: 'setup' } })
    expect(denied.error.message).toMatch(/step 2 .* failed .*\n.*Denied by org deny: git push \*/s)
    expect(existsSync(path.join(await rootOf('setup-deny'), 'first.txt'))).toBe(true)
    expect(existsSync(path.join(await rootOf('setup-deny'), 'pushed.txt'))).toBe(false)

    await define('setup-runtime', ["python3 -c \"open('ran.txt', 'w')\""])
    expect(await useIt('setup-runtime')).toMatchObject({ ok: false, error: { field: 'setup' } })
    expect(existsSync(path.join(await rootOf('setup-runtime'), 'ran.txt'))).toBe(false)

    const audit = await queryRows<{
      subject: string
      decision: string
      rule: string | null
      actor_id: string
    }>(
      app.server.db.db,
      sql`select a.subject, a.decision, a.rule, a.actor_id from environment_audit a
          join environments e on e.id = a.environment_id
          where e.name in ('setup-deny', 'setup-runtime') and a.kind = 'command' order by a.id`,
    )
    expect(audit).toEqual([
      { subject: 'touch first.txt', decision: 'allowed', rule: 'org default', actor_id: team.member.id },
      {
        subject: 'touch pushed.txt && git push origin main',
        decision: 'denied',
        rule: 'org deny: git push *',
        actor_id: team.member.id,
      },
      {
        subject: `python3 -c "open('ran.txt', 'w')"`,
        decision: 'denied',
        rule: 'org deny: python3 *',
        actor_id: team.member.id,
      },
    ])
  })

  it('does not run while commands are switched off', async () => {
    await define('setup-off', ['touch ran.txt'])
    expect((await team.admin.client.patch(SETTINGS, { exec: false })).status).toBe(200)
    try {
      const refused = await useIt('setup-off')
      expect(refused).toMatchObject({ ok: false, error: { status: 403, code: 'exec_disabled' } })
      expect(existsSync(path.join(await rootOf('setup-off'), 'ran.txt'))).toBe(false)
    } finally {
      expect((await team.admin.client.patch(SETTINGS, { exec: true })).status).toBe(200)
    }
  })
})

describe('a job run without an environment', () => {
  it('works in a scratch folder of its own, removed when the run ends', async () => {
    const c = team.creator.client
    const job = await c.post('/_agent-native/jobs', {
      name: 'scratchy',
      schedule: '0 7 * * 1-5',
      instructions: 'Write and run a file.',
    })
    expect(job.status).toBe(201)
    fake.reply(
      toolUse('write_file', { path: 'hello.sh', content: 'echo "hello from $(pwd)"\n' }),
      toolUse('run_command', { command: 'bash hello.sh' }),
      { text: 'Done.' },
    )
    const run = await runNow(c, job.body.job.id, { timeout: 60_000 })
    expect(run.run.status).toBe('success')
    const output = JSON.stringify(run.transcript)
    const folder = /hello from (\/[^"\\]+)/.exec(output)?.[1] // the output, not the script
    expect(folder).toContain(path.join(dir, 'environments'))
    expect(folder).toContain('.runs')
    expect(existsSync(folder!)).toBe(false) // removed after the run
    const rows = await queryRows<{ name: string }>(
      app.server.db.db,
      sql`select name from environments where name like ${'scratch:%'}`,
    )
    expect(rows).toEqual([])
    const audit = await queryRows<{ subject: string; run_id: string }>(
      app.server.db.db,
      sql`select subject, run_id from environment_audit where run_id = ${run.run.id} order by id`,
    )
    expect(audit.map((a) => a.subject)).toEqual(['hello.sh', 'bash hello.sh']) // the trail stays
    // The personal scratch was not touched.
    const personal = await queryRows<{ name: string }>(
      app.server.db.db,
      sql`select name from environments where created_by = ${team.creator.id}`,
    )
    expect(personal).toEqual([])
  })
})
