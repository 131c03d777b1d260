/**
 * Item 1 of the boundary review, as the attacks a member makes: a command or a cloned repository
 * plants a symbolic link inside the environment, and the server (running as root) must never read,
 * write, chown or clone through it. Each attack points its link at a "host" file or folder outside
 * every environment and checks that nothing of it reaches the member and nothing of it changes.
 */
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { SANDBOX_UID } from '#server/environments/exec/identity.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const HOST_SECRET = 'host-secret-line-58213'

let agent: AgentApp
let member: ApiClient
let dir: string
let host: string // stands for any host folder outside every environment
let repos: string

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-links-'))
  chmodSync(dir, 0o711) // the sandbox uid must be able to enter it
  repos = path.join(dir, 'repos')
  host = path.join(dir, 'host')
  mkdirSync(repos, { mode: 0o755 })
  mkdirSync(host, { mode: 0o755 })
  writeFileSync(path.join(host, 'secret.txt'), `${HOST_SECRET}\n`, { mode: 0o600 })
  writeFileSync(path.join(host, 'secret.sh'), `echo ${HOST_SECRET}\n`, { mode: 0o600 })
  writeFileSync(path.join(host, 'config'), 'untouched\n', { mode: 0o644 })
  agent = await startAgentApp({
    key: 'sk-ant-links-0001',
    env: { ENVIRONMENTS_DIR: path.join(dir, 'environments'), ENVIRONMENT_LOCAL_ROOT: repos },
  })
  member = agent.team.member.client
}, 60_000)
afterAll(async () => {
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Stores a personal definition and uses the environment once through the command box. */
async function useWith(name: string, frontmatter: string[], command = 'true', client = member) {
  const put = await client.put(
    `${R}/personal/environments/${name}.md`,
    ['---', ...frontmatter, '---', 'x'].join('\n'),
  )
  expect(put.status).toBe(201)
  return client.post(`${E}/${name}/commands`, { command })
}

const envRoot = async (name: string) => {
  const [row] = await queryRows<{ dir: string }>(
    agent.app.server.db.db,
    sql`select dir from environments where name = ${name}`,
  )
  return path.join(dir, 'environments', row!.dir)
}

/** A bare repository (file:// under ENVIRONMENT_LOCAL_ROOT) whose tree `build` makes in `work`. */
function repoWith(name: string, build: (work: string) => void) {
  const work = path.join(dir, `work-${name}`)
  mkdirSync(work)
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: work })
  git('init', '-q', '-b', 'main')
  build(work)
  git('add', '-A')
  git('commit', '-q', '-m', 'attack')
  const bare = path.join(repos, `${name}.git`)
  execFileSync('git', ['clone', '-q', '--bare', work, bare])
  execFileSync('chmod', ['-R', 'a+rX', repos])
  return `file://${bare}`
}

describe('a link a command planted', () => {
  it('at skills/<name>/SKILL.md is not read as a pending skill', async () => {
    agent.fake.reply(
      toolUse('run_command', {
        command: `mkdir -p skills/leak && ln -s ${path.join(host, 'secret.txt')} skills/leak/SKILL.md`,
      }),
      { text: 'Done.' },
    )
    const turn = await sendChat(member, { message: userText('make a skill') })
    expect(toolParts(turn.reply, 'run_command')[0].output).toMatchObject({ ok: true, exitCode: 0 })
    const skills = await member.get('/_agent-native/skills')
    expect(skills.status).toBe(200)
    expect(JSON.stringify(skills.body)).not.toContain(HOST_SECRET)
    expect(skills.body.skills.map((s: any) => s.name)).not.toContain('leak')
  })

  it("at a setup step's state file is not read and run as the next step's shell", async () => {
    const used = await useWith('state', [
      'setup:',
      `  - 'ln -sf ${path.join(host, 'secret.sh')} "$__cw_out.env"; ln -sf ${path.join(host, 'secret.txt')} "$__cw_out.cwd"'`,
      `  - 'echo second step ran in "$(pwd)"'`,
    ])
    expect(used.status).toBe(200)
    const id = (await member.get(`${E}/state`)).body.environment.id
    const record = (await member.get(`${E}/${id}/bootstrap`)).body.bootstrap
    expect(record).toMatchObject({ status: 'ready' })
    expect(record.steps[1].tail).toBe(`second step ran in ${await envRoot('state')}\n`)
    expect(JSON.stringify(record)).not.toContain(HOST_SECRET)
  })

  it('at the ready marker is not written through', async () => {
    const target = path.join(host, 'config')
    const used = await useWith('marker', ['setup:', `  - 'ln -s ${target} .environment-ready'`])
    expect(used.status).toBe(200)
    expect(readFileSync(target, 'utf8')).toBe('untouched\n')
  })
})

// The repositories are served by file:// under ENVIRONMENT_LOCAL_ROOT, which only org admins may
// clone (a member's would be refused before any link is seen): an admin builds these. The same
// repository over https would reach a member's build the same way.
describe('a link in a cloned git source', () => {
  const admin = () => agent.team.admin.client

  it('at .clockwork does not make the server chown a host folder to the sandbox uid', async () => {
    const folder = path.join(host, 'owned-by-root')
    mkdirSync(folder)
    const url = repoWith('state-link', (work) =>
      execFileSync('ln', ['-s', folder, path.join(work, '.clockwork')]),
    )
    const used = await useWith(
      'chown',
      [`source: { type: git, url: "${url}" }`, 'setup: ["true"]'],
      'true',
      admin(),
    )
    expect(used.status).toBe(200)
    expect(statSync(folder).uid).toBe(0)
  })

  it("at .skills does not let a git skill's clone write into another environment", async () => {
    // Another person's environment: a folder the sandbox uid owns, like every environment's.
    const victim = path.join(host, 'victim-env')
    mkdirSync(victim)
    chownSync(victim, SANDBOX_UID, SANDBOX_UID)
    chmodSync(victim, 0o700)
    const source = repoWith('skills-link', (work) =>
      execFileSync('ln', ['-s', victim, path.join(work, '.skills')]),
    )
    const skill = repoWith('notes', (work) => writeFileSync(path.join(work, 'SKILL.md'), 'notes\n'))
    const used = await useWith(
      'clone',
      [`source: { type: git, url: "${source}" }`, 'skills:', `  - { kind: git, repo: "${skill}" }`],
      'true',
      admin(),
    )
    expect(readdirSync(victim)).toEqual([])
    // The build refuses the link, saying which one.
    expect(used.status).toBe(400)
    expect(used.body.error.message).toMatch(/\.skills.*resolves outside the environment/)
  })
})
