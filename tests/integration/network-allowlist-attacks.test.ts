/**
 * Each command reaches its own environment's hosts, whatever else runs (decision 0519). The
 * filtering proxy of sandbox-runtime keeps one allowlist per process; it was set to the
 * intersection of the running commands' lists (decision 0067), so one member of any organisation
 * whose environment allowed a single host, running a long command (or a harness run, which holds
 * the proxy for the whole run), cut every other organisation's commands off their own hosts, the
 * npm and PyPI registries included, for as long as they liked. Now each command talks to a proxy
 * gate of its own, bound into its sandbox alone, which judges every connection against that
 * command's list; the identity a command puts in its proxy requests decides nothing, so naming
 * another running command's gains nothing either.
 *
 * Two organisations, each a member's environment on this server, through the agent's
 * `run_command` over real HTTP, the real sandbox and the real proxy, with the fake model. No test
 * reaches the internet: a `.invalid` name never resolves, so an allowed one gets as far as the
 * proxy's own lookup (502) and a refused one is answered by the refusal (403), as in exec.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import type { TeamPerson } from '#tests/support/team.ts'

const R = '/_agent-native/resources'
/** A sandbox starting: a hang guard, not a deadline. */
const STARTED = { timeout: 60_000, interval: 100 }

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-network-allowlist', environmentsDir: 'clockwork-netallow-' })
}, 120_000)
afterAll(() => agent?.close())

/** `person`'s personal environment `name`, on this server, allowed `hosts` only. */
async function define(person: TeamPerson, name: string, hosts: string[]) {
  const body = [
    '---',
    'provider: local',
    'policy:',
    '  network:',
    `    allow: ${JSON.stringify(hosts)}`,
    '---',
    'Network tests.',
    '',
  ].join('\n')
  const saved = await person.client.put(`${R}/personal/environments/${name}.md`, body)
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300)
}

/** The folder of environment `name` on this server, once its first command made it. */
async function folderOf(name: string) {
  const [row] = await queryRows<{ dir: string }>(
    agent.app.server.db.db,
    sql`select dir from environments where name = ${name}`,
  )
  expect(row, `environment ${name} not made yet`).toBeDefined()
  return path.join(agent.dir!, 'environments', row!.dir)
}

/** One chat turn of `person` whose agent runs `command` in `environment`; the tool's output. */
async function runAs(person: TeamPerson, environment: string, command: string) {
  const task = `Task ${environment}-${Math.random()}`
  agent.fake.replyWhen(task, toolUse('run_command', { environment, command }), { text: 'Done.' })
  const chat = await sendChat(person.client, { message: userText(task) })
  expect(chat.status).toBe(200)
  return toolParts(chat.reply, 'run_command')[0].output
}

/**
 * Tenant A's long command, allowed `x.invalid` only: it leaves its proxy variables (the identity
 * the runtime gave it) in its folder, says it started, and holds the proxy until told to stop.
 */
async function startLongCommand(person: TeamPerson, name: string) {
  await define(person, name, ['x.invalid'])
  const finished = runAs(
    person,
    name,
    'env | grep -E "^(http|ftp)_proxy=" > proxy.env; touch started; while [ ! -e stop ]; do sleep 0.05; done',
  )
  const root = await vi.waitFor(async () => {
    const folder = await folderOf(name)
    expect(existsSync(path.join(folder, 'started'))).toBe(true)
    return folder
  }, STARTED)
  return {
    /** Its proxy URLs by variable name, as the command itself saw them (ftp_proxy: SOCKS). */
    proxyVars: (): Record<string, string> =>
      Object.fromEntries(
        readFileSync(path.join(root, 'proxy.env'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
    stop: () => {
      writeFileSync(path.join(root, 'stop'), '')
      return finished
    },
  }
}

/**
 * curl's answer for `url`: the proxy's status for an http URL, its answer to the CONNECT for an
 * https one (000 when no proxy answered in HTTP, as a SOCKS proxy does not).
 */
const status = (url: string, proxy = '') =>
  `curl -sS -m 10 ${proxy && `-x '${proxy}'`} -o /dev/null -w '${url.startsWith('https:') ? '%{http_connect}' : '%{http_code}'}\\n' ${url} 2>/dev/null; true`

describe("one organisation's long command with a one-host allowlist", () => {
  it("leaves another organisation's command its own hosts", async () => {
    const team = agentTeam()
    const long = await startLongCommand(team.member, 'only-x')
    try {
      await define(team.outsider, 'only-y', ['y.invalid'])
      // Before: the allowlist in force was the intersection (nothing), so y.invalid was refused: 403.
      const other = await runAs(team.outsider, 'only-y', status('http://y.invalid/'))
      expect(other).toMatchObject({ ok: true, stdout: '502\n' })
      expect(other.networkBlocked).toBeUndefined()
      // And A, meanwhile, still gets x.invalid and nothing of B's.
      const own = await runAs(
        team.member,
        'only-x',
        [status('http://x.invalid/'), status('http://y.invalid/')].join('; '),
      )
      expect(own).toMatchObject({ ok: true, stdout: '502\n403\n', networkBlocked: ['y.invalid:80'] })
    } finally {
      await long.stop()
    }
  }, 120_000)

  it("gains another command nothing when it forges that command's proxy identity", async () => {
    const team = agentTeam()
    const long = await startLongCommand(team.member, 'forged-x')
    let own
    try {
      await define(team.outsider, 'forger-y', ['y.invalid'])
      const vars = long.proxyVars()
      expect(vars.http_proxy).toMatch(/^http:\/\/srt\./)
      expect(vars.ftp_proxy).toMatch(/^socks5h:\/\/srt\./)
      // B names A's exact proxy user and password (HTTP, CONNECT, SOCKS) to reach A's host.
      const forged = await runAs(
        team.outsider,
        'forger-y',
        [
          status('http://x.invalid/', vars.http_proxy),
          status('https://x.invalid/', vars.http_proxy),
          status('http://x.invalid:81/', vars.ftp_proxy),
          status('http://y.invalid/', vars.http_proxy),
        ].join('; '),
      )
      // Refused, and told as B's own refusals (SOCKS has no status: its refusal says it); B's own
      // host is still allowed.
      expect(forged).toMatchObject({ ok: true, stdout: '403\n403\n000\n502\n' })
      expect([...forged.networkBlocked].sort()).toEqual(['x.invalid:443', 'x.invalid:80', 'x.invalid:81'])
    } finally {
      own = await long.stop()
    }
    // None of it was put down to A.
    expect(own).toMatchObject({ ok: true })
    expect(own.networkBlocked).toBeUndefined()
  }, 120_000)
})

/** The signed-up team: a member of organisation A, and the outsider, who owns organisation B. */
const agentTeam = () => agent.team
