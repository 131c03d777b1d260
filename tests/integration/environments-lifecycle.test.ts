/**
 * Environment definitions and their lifecycle through the real agent tools over real HTTP, with a
 * git source and a git skill served from local bare repositories (file:// under
 * ENVIRONMENT_LOCAL_ROOT, which only org admins may read: the org's owner builds them): a shallow clone, AGENTS.md with its links, serial and parallel setup
 * with cwd/env carried, a snapshot restored without running setup again, a rebuild when setup
 * changes, a secret that reaches no file, snapshot, log or transcript; file events in the chat
 * stream and a run's record; self-made skills pending until a person approves them.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { snapshotName } from '#server/environments/bootstrap/snapshot.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { runNow } from '#tests/support/runs.ts'

const KEY = 'sk-ant-deployment-env-0013'
const SECRET = 'ghp-skill-secret-token-5521'
const R = '/_agent-native/resources'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
let dir: string
let repos: string
let snapshots: string
const logs: string[] = []

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    // The clone belongs to the sandbox uid: this process must be told it may look at it.
    env: { ...process.env, GIT_CONFIG_GLOBAL: path.join(dir, 'gitconfig') },
  })

/** A bare repository with one commit per entry of `commits` (files to write). */
function bareRepo(name: string, commits: Record<string, string>[]) {
  const work = path.join(dir, `work-${name}`)
  mkdirSync(work)
  git(work, 'init', '-q', '-b', 'main')
  commits.forEach((files, i) => {
    for (const [file, content] of Object.entries(files)) writeFileSync(path.join(work, file), content)
    git(work, 'add', '.')
    git(work, 'commit', '-q', '-m', `commit ${i + 1}`)
  })
  git(work, 'branch', 'other') // a second branch a single-branch clone leaves out
  const bare = path.join(repos, `${name}.git`)
  git(dir, 'clone', '-q', '--bare', work, bare)
  execFileSync('chmod', ['-R', 'a+rX', repos])
  return `file://${bare}`
}

beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    scheduler: true,
    environmentsDir: 'clockwork-lifecycle-',
    env: (made) => {
      dir = made
      repos = path.join(dir, 'repos')
      snapshots = path.join(dir, 'snapshots')
      mkdirSync(repos, { mode: 0o755 })
      writeFileSync(path.join(dir, 'gitconfig'), '[safe]\n\tdirectory = *\n')
      return { ENVIRONMENT_SNAPSHOTS_DIR: snapshots, ENVIRONMENT_LOCAL_ROOT: repos }
    },
  })
  ;({ app, team, fake } = agent)
  // Every line the server logs, to check no secret reaches them.
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: any, ...rest: any[]) => {
    logs.push(String(chunk))
    return write(chunk, ...rest)
  }) as typeof process.stdout.write
})
afterAll(() => agent?.close())
beforeEach(() => {
  fake.requests.length = 0
})

const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})

let appUrl: string
let skillsUrl: string
const definition = (setup: string[]) =>
  [
    '---',
    `source: { type: git, url: "${appUrl}" }`,
    'setup:',
    ...setup.map((s) => `  - ${s}`),
    'scripts: { test: "node test.js" }',
    'skills:',
    `  - { kind: git, repo: "${skillsUrl}", secret: GH_TOKEN }`,
    '  - { kind: file, path: .hints.md, content: "Prefer npm." }',
    'secrets: [GH_TOKEN]',
    '---',
    'Work on the app.',
  ].join('\n')
const SETUP = [
  '"mkdir -p build && cd build && export STAGE=built"',
  `'echo "$STAGE in $(pwd)" > stage.txt; date +%s%N >> ../setup-runs.log'`,
  '["sleep 1; echo a > a.txt", "sleep 1; echo b > b.txt"]',
]

const envRow = async (name: string) =>
  (
    await queryRows<{ id: string; dir: string }>(
      app.server.db.db,
      sql`select id, dir from environments where name = ${name}`,
    )
  )[0]!
const rootOf = async (name: string) => path.join(dir, 'environments', (await envRow(name)).dir)
const bootstrapOf = async (name: string) =>
  (await team.owner.client.get(`/_agent-native/environments/${(await envRow(name)).id}/bootstrap`)).body
    .bootstrap

async function use(name: string, ...replies: Parameters<FakeAnthropic['reply']>) {
  fake.reply(...replies, { text: 'Done.' })
  const turn = await sendChat(team.owner.client, { message: userText(`work in ${name}`) })
  expect(turn.status).toBe(200)
  return turn
}

describe('a git source with setup, skills and a snapshot', () => {
  const threads: string[] = []

  it('clones shallow, writes AGENTS.md with links, runs serial and parallel setup', async () => {
    appUrl = bareRepo('app', [
      { 'README.md': 'one\n' },
      { 'README.md': 'two\n' },
      { 'test.js': 'console.log("tests pass")\n', 'package-lock.json': '{}\n' },
    ])
    skillsUrl = bareRepo('skills', [
      { 'SKILL.md': '---\nname: house\ndescription: House rules\n---\nBe kind.\n' },
    ])
    const c = team.owner.client
    expect(
      (await c.request('PUT', '/_agent-native/secrets/personal/GH_TOKEN', { value: SECRET })).status,
    ).toBe(200)
    expect((await c.put(`${R}/personal/environments/app.md`, definition(SETUP))).status).toBe(201)

    const turn = await use('app', toolUse('list_directory', { environment: 'app' }))
    threads.push(turn.threadId!)
    expect(toolParts(turn.reply, 'list_directory')[0].output.error ?? null).toBeNull()
    const root = await rootOf('app')

    // Shallow: one commit of three, single branch.
    expect(git(root, 'rev-list', '--count', 'HEAD').trim()).toBe('1')
    expect(existsSync(path.join(root, '.git', 'shallow'))).toBe(true)
    expect(git(root, 'config', 'remote.origin.fetch').trim()).toBe(
      '+refs/heads/main:refs/remotes/origin/main',
    )
    expect(git(root, 'for-each-ref', '--format=%(refname)', 'refs/remotes')).not.toContain('other')
    // Instructions and their links.
    expect(readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toBe('Work on the app.\n')
    for (const link of ['CLAUDE.md', 'GEMINI.md']) {
      expect(lstatSync(path.join(root, link)).isSymbolicLink()).toBe(true)
      expect(readlinkSync(path.join(root, link))).toBe('AGENTS.md')
    }
    // Skills: the git skill cloned into .skills/<repo>, the file skill written.
    expect(readFileSync(path.join(root, '.skills', 'skills', 'SKILL.md'), 'utf8')).toContain('Be kind.')
    expect(readFileSync(path.join(root, '.hints.md'), 'utf8')).toBe('Prefer npm.')
    // Serial steps carried cwd (build/) and the exported variable.
    expect(readFileSync(path.join(root, 'build', 'stage.txt'), 'utf8')).toBe(`built in ${root}/build\n`)
    expect(readFileSync(path.join(root, 'setup-runs.log'), 'utf8').trim().split('\n')).toHaveLength(1)
    // The parallel group ran in build/ too, and its two sleeps overlapped.
    expect(readFileSync(path.join(root, 'build', 'a.txt'), 'utf8')).toBe('a\n')
    const record = await bootstrapOf('app')
    expect(record).toMatchObject({ status: 'ready', phase: 'done', packageManager: 'npm' })
    expect(record.restoredFrom).toBeUndefined()
    const [a, b] = record.steps.filter((s: any) => s.index === 2)
    const span = (s: any): [number, number] => [Date.parse(s.startedAt), Date.parse(s.endedAt)]
    expect(span(a)[0]).toBeLessThan(span(b)[1])
    expect(span(b)[0]).toBeLessThan(span(a)[1])
    expect(record.steps.map((s: any) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
  })

  it('takes a snapshot; a second use of a wiped folder restores it without running setup', async () => {
    const { id } = await envRow('app')
    const tarball = path.join(snapshots, snapshotName(id))
    expect(existsSync(tarball)).toBe(true)
    rmSync(await rootOf('app'), { recursive: true, force: true }) // a new host, a cleaned disk

    const turn = await use('app', toolUse('run_script', { environment: 'app', name: 'test' }))
    threads.push(turn.threadId!)
    const [script] = toolParts(turn.reply, 'run_script')
    expect(script.output).toMatchObject({ ok: true, script: 'test', exitCode: 0, stdout: 'tests pass\n' })
    const root = await rootOf('app')
    expect(readFileSync(path.join(root, 'setup-runs.log'), 'utf8').trim().split('\n')).toHaveLength(1)
    expect(readFileSync(path.join(root, 'build', 'stage.txt'), 'utf8')).toBe(`built in ${root}/build\n`)
    expect(await bootstrapOf('app')).toMatchObject({ status: 'ready', restoredFrom: 'snapshot', steps: [] })
    expect(lstatSync(path.join(root, 'CLAUDE.md')).isSymbolicLink()).toBe(true)
  })

  it('rebuilds when setup changes', async () => {
    const c = team.owner.client
    const changed = definition([...SETUP, '"echo second > second.txt"'])
    expect((await c.put(`${R}/personal/environments/app.md`, changed)).status).toBe(200)
    const turn = await use('app', toolUse('list_directory', { environment: 'app' }))
    threads.push(turn.threadId!)
    const root = await rootOf('app')
    expect(readFileSync(path.join(root, 'build', 'second.txt'), 'utf8')).toBe('second\n')
    const record = await bootstrapOf('app')
    expect(record.restoredFrom).toBeUndefined()
    expect(record.steps).toHaveLength(5)
  })

  it('keeps the git skill secret out of every file, the snapshot, the logs and the transcript', async () => {
    const root = await rootOf('app')
    // grep exits 1 when nothing matches
    const grep = spawnSync('grep', ['-rl', '--', SECRET, root], { encoding: 'utf8' })
    expect(grep.status).toBe(1)
    expect(grep.stdout).toBe('')
    const { id } = await envRow('app')
    const tarball = gunzipSync(readFileSync(path.join(snapshots, snapshotName(id)))).toString('latin1')
    expect(tarball).not.toContain(SECRET)
    expect(tarball).toContain('.skills/skills/SKILL.md')
    const transcripts = await Promise.all(
      threads.map(async (id) =>
        JSON.stringify((await team.owner.client.get(`/_agent-native/agent/threads/${id}`)).body),
      ),
    )
    expect(transcripts.join('')).toContain('tests pass') // the transcripts are really there
    const sent = JSON.stringify(fake.requests.map((r) => r.body))
    for (const text of [...transcripts, sent, logs.join(''), JSON.stringify(await bootstrapOf('app'))]) {
      expect(text).not.toContain(SECRET)
    }
  })
})

describe('file events', () => {
  it('show up in the chat stream as the files a command changed', async () => {
    const turn = await use(
      'app',
      toolUse('run_command', {
        environment: 'app',
        command:
          'echo x > new.txt && echo more >> README.md && rm build/a.txt && mkdir -p node_modules/x && touch node_modules/x/i.js',
      }),
    )
    const [ran] = toolParts(turn.reply, 'run_command')
    expect(ran.output.exitCode).toBe(0)
    const files = ran.output.files.map((f: any) => [f.type, f.path])
    expect(files).toEqual(
      expect.arrayContaining([
        ['create', 'new.txt'],
        ['change', 'README.md'],
        ['delete', 'build/a.txt'],
      ]),
    )
    expect(files.some((f: string[]) => f[1]!.startsWith('node_modules'))).toBe(false)
    expect(Date.parse(ran.output.files[0].timestamp)).toBeGreaterThan(0)
  })

  it('are recorded with a job run', async () => {
    const c = team.owner.client
    const job = await c.post('/_agent-native/jobs', {
      name: 'touches-files',
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'Write the report.',
      environment: 'app',
    })
    expect(job.status).toBe(201)
    fake.reply(toolUse('run_command', { command: 'echo report > report.txt' }), { text: 'Written.' })
    const run = await runNow(c, job.body.job.id)
    expect(run.run.status).toBe('success')
    const files = await c.get(`/_agent-native/runs/${run.run.id}/files`)
    expect(files.status).toBe(200)
    expect(files.body.files).toEqual([
      expect.objectContaining({ environment: 'app', path: 'report.txt', type: 'create' }),
    ])
    // The job is the owner's personal one: to anyone else its run, and so what it changed, is a 404
    // (decision 0522; a run others see lists only the environments they see: run-files-page).
    expect((await team.admin.client.get(`/_agent-native/runs/${run.run.id}/files`)).status).toBe(404)
  })
})

describe('self-made skills', () => {
  const SKILL = '---\nname: deploy-notes\ndescription: How we deploy\n---\nRun the deploy script.\n'

  it('are pending until a person approves them; the agent cannot approve', async () => {
    const turn = await use(
      'app',
      toolUse('write_file', { environment: 'app', path: 'skills/deploy-notes/SKILL.md', content: SKILL }),
      toolUse('skills', { action: 'approve', name: 'deploy-notes' }),
    )
    expect(toolParts(turn.reply, 'write_file')[0].output.skill).toMatchObject({
      name: 'deploy-notes',
      status: 'pending_approval',
    })
    expect(toolParts(turn.reply, 'skills')[0].output).toMatchObject({ ok: false, error: { status: 403 } })

    const listed = await team.owner.client.get('/_agent-native/skills')
    const [skill] = listed.body.skills
    expect(skill).toMatchObject({
      name: 'deploy-notes',
      description: 'How we deploy',
      status: 'pending_approval',
    })

    // Pending: it cannot be attached.
    const c = team.owner.client
    expect(
      (await c.put(`${R}/personal/environments/tools.md`, '---\nskills: [deploy-notes]\n---\nTools.\n'))
        .status,
    ).toBe(201)
    const refused = await use('tools', toolUse('list_directory', { environment: 'tools' }))
    expect(toolParts(refused.reply, 'list_directory')[0].output.error).toMatchObject({
      status: 400,
      message: expect.stringMatching(/deploy-notes is not an approved skill/),
    })

    // A member is not an admin; an admin approves the version they saw.
    expect((await team.member.client.post(`/_agent-native/skills/${skill.id}/approve`, {})).status).toBe(403)
    const approved = await team.admin.client.post(`/_agent-native/skills/${skill.id}/approve`, {
      updatedAt: skill.updatedAt,
    })
    expect(approved.status).toBe(200)
    expect(approved.body.skill).toMatchObject({ status: 'approved', decidedBy: team.admin.id })

    const used = await use('tools', toolUse('list_directory', { environment: 'tools' }))
    expect(toolParts(used.reply, 'list_directory')[0].output.error ?? null).toBeNull()
    expect(
      readFileSync(path.join(await rootOf('tools'), '.skills', 'deploy-notes', 'SKILL.md'), 'utf8'),
    ).toBe(SKILL)

    // Editing the approved skill sends it back to pending.
    const edited = await use(
      'app',
      toolUse('edit_file', {
        environment: 'app',
        path: 'skills/deploy-notes/SKILL.md',
        old: 'Run the deploy script.',
        new: 'Run the deploy script twice.',
      }),
    )
    expect(toolParts(edited.reply, 'edit_file')[0].output.skill).toMatchObject({ status: 'pending_approval' })
    const audit = await c.get(`/_agent-native/skills/${skill.id}`)
    expect(audit.body.skill.status).toBe('pending_approval')
    expect(audit.body.audit.map((a: any) => [a.action, a.via]).reverse()).toEqual([
      ['proposed', 'agent'],
      ['refused', 'agent'],
      ['approved', 'person'],
      ['edited', 'agent'],
    ])
  })
})
