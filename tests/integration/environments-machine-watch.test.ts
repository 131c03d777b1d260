/**
 * File events of a `machine:` environment, whose folder is not on this server's disk: the poll
 * watcher lists it through the machine's own file listing (the real client in a child process)
 * around each command, and the events reach the chat's tool output, the run's recorded files, the
 * command box and the environment page, the same as a local folder's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getDb } from '#server/db/client.ts'
import { environments } from '#server/db/schema/index.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { downloadClient, startClient, type MachineClient } from '#tests/support/machine-client.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { runNow } from '#tests/support/runs.ts'

const KEY = 'sk-ant-deployment-key-machine-watch'
const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

let agent: AgentApp<false>
let app: TestApp
let fake: FakeAnthropic
let alice: ApiClient
let dir: string
let machine: MachineClient

const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})
const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  writeFileSync(path.join(dir, rel), text)
}
const pairs = (files: { type: string; path: string }[]) => files.map((f) => [f.type, f.path])

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-machine-watch-'))
  // The machine's folder is the test's own: ENVIRONMENTS_DIR (environmentsDir) would not be it.
  agent = await startAgentApp({ key: KEY, team: false, scheduler: true })
  ;({ app, fake } = agent)
  alice = app.client()
  await alice.signUp('Alice', 'alice@example.com')
  // The token's name gives the machine its id: `box`.
  const token = await alice.post('/_agent-native/machines/tokens', { name: 'box' })
  expect(token.status).toBe(201)
  const clientFile = await downloadClient(app.baseUrl)
  machine = startClient(clientFile, ['--server', app.baseUrl, '--token', token.body.token, '--dir', dir])
  await machine.waitFor('is online')
  expect(
    (await alice.put(`${R}/personal/environments/repo.md`, '---\nprovider: machine:box\n---\nThe box.\n'))
      .status,
  ).toBe(201)
}, 120_000)

afterAll(async () => {
  await machine?.kill()
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("a machine environment's file events", () => {
  it("are the chat's files changed: created, changed, deleted, without .git and node_modules", async () => {
    write('edit.txt', 'one\n')
    write('old.txt', 'bye\n')
    write('keep.txt', 'same\n')
    write('node_modules/pkg/index.js', 'x')
    fake.reply(
      toolUse('run_command', {
        environment: 'repo',
        command:
          'echo hi > new.txt && echo more >> edit.txt && rm old.txt && mkdir -p src/lib && echo x > src/lib/made.ts' +
          ' && echo y > node_modules/pkg/more.js && mkdir -p .git && echo ref > .git/HEAD',
      }),
      { text: 'Done.' },
    )
    const turn = await sendChat(alice, { message: userText('change some files on the box') })
    const [ran] = toolParts(turn.reply, 'run_command')
    expect(ran.output).toMatchObject({ ok: true, environment: 'repo', exitCode: 0 })
    expect(pairs(ran.output.files)).toEqual([
      ['change', 'edit.txt'],
      ['create', 'new.txt'],
      ['delete', 'old.txt'],
      ['create', 'src/lib/made.ts'],
    ])
    for (const f of ran.output.files) expect(Number.isNaN(Date.parse(f.timestamp))).toBe(false)

    // Recorded with the chat thread, like a local folder's.
    const [env] = await getDb().select().from(environments).where(eq(environments.name, 'repo'))
    const audit = await alice.get(`${E}/${env!.id}/audit?kinds=change`)
    expect(audit.body.entries.map((e: any) => [e.rule, e.subject, e.threadId]).sort()).toEqual([
      ['change', 'edit.txt', turn.threadId],
      ['create', 'new.txt', turn.threadId],
      ['create', 'src/lib/made.ts', turn.threadId],
      ['delete', 'old.txt', turn.threadId],
    ])
  })

  it("are recorded with a job run and listed as the run's files", async () => {
    const job = await alice.post('/_agent-native/jobs', {
      name: 'box-report',
      schedule: '0 7 * * 1-5',
      instructions: 'Write the report on the box.',
      environment: 'repo',
    })
    expect(job.status).toBe(201)
    fake.reply(toolUse('run_command', { command: 'echo report > report.txt && rm new.txt' }), {
      text: 'Written.',
    })
    const run = await runNow(alice, job.body.job.id, { timeout: 30_000 })
    const runId: string = run.run.id
    expect(run.run.status).toBe('success')
    const files = await alice.get(`/_agent-native/runs/${runId}/files`)
    expect(files.status).toBe(200)
    expect(files.body.files.map((f: any) => [f.environment, f.type, f.path]).sort()).toEqual([
      ['repo', 'create', 'report.txt'],
      ['repo', 'delete', 'new.txt'],
    ])
  })

  it('come back from the command box and show on the environment page, newest first', async () => {
    const ran = await alice.post(`${E}/repo/commands`, { command: 'echo boxed > boxed.txt' })
    expect(ran.status).toBe(200)
    expect(pairs(ran.body.files)).toEqual([['create', 'boxed.txt']])

    const [env] = await getDb().select().from(environments).where(eq(environments.name, 'repo'))
    const changes = await alice.get(`${E}/${env!.id}/changes?limit=3`)
    expect(changes.status).toBe(200)
    expect(changes.body.changes[0]).toMatchObject({
      type: 'create',
      path: 'boxed.txt',
      via: 'person',
      actor: 'Alice',
      runId: null,
    })
    expect(changes.body.changes.slice(1).map((c: any) => c.via)).toEqual(['run', 'run'])
    expect((await alice.get(`${E}/${env!.id}/changes?limit=0`)).body.error.field).toBe('limit')

    const page = await alice.get('/environments/repo')
    expect(page.status).toBe(200)
    expect(page.body).toContain('Recent file changes')
    expect(page.body).toContain('boxed.txt')
    expect(page.body).toContain('report.txt')
    // Another person sees none of it.
    const bob = app.client()
    await bob.signUp('Bob', 'bob@example.com')
    expect((await bob.get(`${E}/${env!.id}/changes`)).status).toBe(404)
  })
})
