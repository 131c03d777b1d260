/**
 * Connected machines end to end: the real client (the file the app serves) in a child process
 * against the real server on real Postgres, driven through the provider API environments call.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getDb } from '#server/db/client.ts'
import { environments, machineRuns, machines } from '#server/db/schema/index.ts'
import { forwardCall } from '#server/machines/forward.ts'
import { machineProvider } from '#server/machines/provider.ts'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { STOP_RETRY_MS } from '#server/machines/stops.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { downloadClient, startClient, startRelay, type MachineClient } from '#tests/support/machine-client.ts'
import { eventually } from '#tests/support/poll.ts'
import type { TestApp } from '#tests/support/test-app.ts'

let agent: AgentApp<false>
let app: TestApp
let fake: FakeAnthropic
const DEPLOYMENT_KEY = 'sk-ant-deployment-key-machines'
let clientFile: string
let alice: ApiClient
let bob: ApiClient
let aliceId: string
let bobId: string
const started: MachineClient[] = []
const dirs: string[] = []

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-machine-dir-'))
  dirs.push(dir)
  return dir
}

async function token(client: ApiClient, name = 'Laptop'): Promise<{ token: string; id: string }> {
  const res = await client.post('/_agent-native/machines/tokens', { name })
  expect(res.status).toBe(201)
  return { token: res.body.token, id: res.body.summary.id }
}

function connect(server: string, tok: string, dir: string, extra: string[] = []): MachineClient {
  const client = startClient(clientFile, ['--server', server, '--token', tok, '--dir', dir, ...extra])
  started.push(client)
  return client
}

async function machineRow(ownerId: string, id: string) {
  const rows = await getDb()
    .select()
    .from(machines)
    .where(and(eq(machines.ownerId, ownerId), eq(machines.id, id)))
  return rows[0]
}

const R = '/_agent-native/resources'
const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})

const run = (command: string, runId = 'run_a', timeoutMs = 20_000) => ({ command, runId, timeoutMs })

beforeAll(async () => {
  agent = await startAgentApp({ key: DEPLOYMENT_KEY, team: false })
  ;({ app, fake } = agent)
  alice = app.client()
  bob = app.client()
  aliceId = (await alice.signUp('Alice', 'alice@example.com')).id
  bobId = (await bob.signUp('Bob', 'bob@example.com')).id
  clientFile = await downloadClient(app.baseUrl)
}, 120_000)

afterAll(async () => {
  for (const client of started) await client.kill()
  await agent?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('a connected machine', () => {
  let dir: string
  let laptop: MachineClient
  let laptopToken: string

  beforeAll(async () => {
    dir = tempDir()
    // The token named "Laptop" connects the machine `laptop`, labelled "Laptop".
    laptopToken = (await token(alice)).token
    laptop = connect(app.baseUrl, laptopToken, dir, ['--deny', 'git push*'])
    await laptop.waitFor('is online')
  })

  it('registers and is listed, online, with its label, OS and directory', async () => {
    const res = await alice.get('/_agent-native/machines')
    expect(res.status).toBe(200)
    expect(res.body.machines).toHaveLength(1)
    expect(res.body.machines[0]).toMatchObject({ id: 'laptop', label: 'Laptop', online: true })
    expect(res.body.machines[0].dir).toBe(path.resolve(dir))
    expect(res.body.machines[0].os).toContain(os.platform())
    expect(res.body.tokens[0]).toMatchObject({ name: 'Laptop', machineId: 'laptop', revokedAt: null })
    expect(res.body.tokens[0].lastUsedAt).not.toBeNull()
    expect(JSON.stringify(res.body)).not.toContain('cwm_') // the token is never shown again
  })

  it('runs a command: output streamed, exit code, duration', async () => {
    const chunks: string[] = []
    const result = await machineProvider.runCommand(
      aliceId,
      'laptop',
      run('echo hello; pwd; echo oops >&2; exit 3'),
      (out) => chunks.push(`${out.stream}:${out.text}`),
    )
    expect(result.exitCode).toBe(3)
    expect(result.stdout).toBe(`hello\n${path.resolve(dir)}\n`)
    expect(result.stderr).toBe('oops\n')
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
    expect(chunks.join('')).toContain('stdout:hello')
    expect(chunks.join('')).toContain('stderr:oops')
  })

  it('reads, writes, edits, lists and searches files inside its directory', async () => {
    await machineProvider.writeFile(aliceId, 'laptop', { path: 'src/a.txt', content: 'one\ntwo\n' })
    await machineProvider.editFile(aliceId, 'laptop', { path: 'src/a.txt', oldText: 'two', newText: 'three' })
    expect(await machineProvider.readFile(aliceId, 'laptop', { path: 'src/a.txt' })).toEqual({
      content: 'one\nthree\n',
    })
    const listed = await machineProvider.listDirectory(aliceId, 'laptop', { path: 'src' })
    expect(listed.entries).toEqual([{ name: 'a.txt', type: 'file', size: 10 }])
    const found = await machineProvider.searchFiles(aliceId, 'laptop', { query: 'three' })
    expect(found.matches).toEqual([{ path: 'src/a.txt', line: 2, text: 'three' }])
  })

  it('refuses path escapes on the client: "..", absolute paths, symlinks out', async () => {
    const outside = tempDir()
    writeFileSync(path.join(outside, 'secret.txt'), 'secret')
    symlinkSync(outside, path.join(dir, 'link'))
    mkdirSync(path.join(dir, 'sub'), { recursive: true })
    const refused = { status: 403, code: 'path_outside_dir' }
    await expect(machineProvider.readFile(aliceId, 'laptop', { path: '../x' })).rejects.toMatchObject(refused)
    await expect(machineProvider.readFile(aliceId, 'laptop', { path: 'sub/../../x' })).rejects.toMatchObject(
      refused,
    )
    await expect(
      machineProvider.readFile(aliceId, 'laptop', { path: path.join(outside, 'secret.txt') }),
    ).rejects.toMatchObject(refused)
    await expect(
      machineProvider.readFile(aliceId, 'laptop', { path: 'link/secret.txt' }),
    ).rejects.toMatchObject(refused)
    await expect(
      machineProvider.writeFile(aliceId, 'laptop', { path: 'link/new.txt', content: 'x' }),
    ).rejects.toMatchObject(refused)
    await expect(machineProvider.listDirectory(aliceId, 'laptop', { path: 'link' })).rejects.toMatchObject(
      refused,
    )
    await expect(
      machineProvider.runCommand(aliceId, 'laptop', { ...run('ls'), cwd: 'link' }),
    ).rejects.toMatchObject(refused)
  })

  it('applies its own deny list, built in and extended with --deny', async () => {
    const denied = { status: 403, code: 'command_denied' }
    await expect(
      machineProvider.runCommand(aliceId, 'laptop', run('echo hi && sudo ls')),
    ).rejects.toMatchObject(denied)
    await expect(
      machineProvider.runCommand(aliceId, 'laptop', run('git push origin main')),
    ).rejects.toMatchObject(denied)
    expect((await machineProvider.runCommand(aliceId, 'laptop', run('echo git push'))).exitCode).toBe(0)
  })

  it("runs the agent's environment tools on the machine named by `provider: machine:<id>`, under the environment's policy, audited", async () => {
    const put = await alice.put(
      `${R}/personal/environments/repo.md`,
      '---\nprovider: machine:laptop\npolicy:\n  commands:\n    deny: ["rm *"]\n---\nAlice\'s checkout.\n',
    )
    expect(put.status).toBe(201)
    fake.reply(
      toolUse('write_file', { environment: 'repo', path: 'notes/todo.txt', content: 'ship it\n' }),
      toolUse('run_command', { environment: 'repo', command: 'echo from-agent; pwd; cat notes/todo.txt' }),
      toolUse('list_directory', { environment: 'repo', path: 'notes' }),
      toolUse('edit_file', { environment: 'repo', path: 'notes/todo.txt', old: 'ship', new: 'test' }),
      toolUse('read_file', { environment: 'repo', path: 'notes/todo.txt' }),
      toolUse('run_command', { environment: 'repo', command: 'ls && rm -f notes/todo.txt' }),
      { text: 'Done.' },
    )
    const turn = await sendChat(alice, { message: userText('work in my repo') })
    expect(turn.status).toBe(200)
    const [ran, refused] = toolParts(turn.reply, 'run_command')
    expect(ran.output).toMatchObject({
      ok: true,
      environment: 'repo',
      exitCode: 0,
      stdout: `from-agent\n${path.resolve(dir)}\nship it\n`,
    })
    expect(toolParts(turn.reply, 'list_directory')[0].output).toMatchObject({
      ok: true,
      entries: [{ path: 'notes/todo.txt', type: 'file', size: 8 }],
    })
    expect(toolParts(turn.reply, 'read_file')[0].output).toMatchObject({ ok: true, content: 'test it' })
    // The environment's policy is decided on the server: the machine never saw the command.
    expect(refused.output).toMatchObject({
      ok: false,
      error: { status: 403, code: 'denied' },
      rule: 'deny: rm *',
    })
    expect(laptop.output()).not.toContain('rm -f notes')
    expect(readFileSync(path.join(dir, 'notes/todo.txt'), 'utf8')).toBe('test it\n')

    const [env] = await getDb().select().from(environments).where(eq(environments.name, 'repo'))
    const audit = await alice.get(`/_agent-native/environments/${env!.id}/audit`)
    expect(audit.status).toBe(200)
    expect(
      audit.body.entries
        .map((e: Record<string, unknown>) => [e.kind, e.subject, e.decision, e.exitCode])
        .reverse(),
    ).toEqual([
      ['write', 'notes/todo.txt', 'allowed', null],
      ['command', 'echo from-agent; pwd; cat notes/todo.txt', 'allowed', 0],
      ['write', 'notes/todo.txt', 'allowed', null],
      ['command', 'ls && rm -f notes/todo.txt', 'denied', null],
    ])
    expect(audit.body.entries.every((e: { threadId: string }) => e.threadId === turn.threadId)).toBe(true)
    // The chat turn's commands are listed as using the machine.
    const listed = (await alice.get('/_agent-native/machines')).body.machines[0]
    expect(listed.runs[0].runId).toMatch(new RegExp(`^${turn.threadId}/turn_`))
    const page = await alice.get('/settings/machines')
    expect(page.status).toBe(200)
    expect(page.body).toContain('Runs using it:')
    expect(page.body).toContain('Chat: work in my repo')
  })

  it('refuses an environment on a machine that names stored secrets (400 on `secrets`), before the machine sees the command', async () => {
    const definition = '---\nprovider: machine:laptop\nsecrets: [API_TOKEN]\n---\nWith a secret.\n'
    expect((await alice.put(`${R}/personal/environments/keyed.md`, definition)).status).toBe(201)
    const res = await alice.post('/_agent-native/environments/keyed/commands', { command: 'echo keyed-run' })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'secrets', message: expect.stringMatching(/^secrets: /) })
    expect(laptop.output()).not.toContain('keyed-run')
  })

  it("is Alice's only: Bob's environment naming the same machine id gets a 404, then runs on Bob's own machine", async () => {
    expect(
      (await bob.put(`${R}/personal/environments/repo.md`, '---\nprovider: machine:laptop\n---\n')).status,
    ).toBe(201)
    fake.reply(toolUse('run_command', { environment: 'repo', command: 'pwd' }), { text: 'No such machine.' })
    const bobsTurn = await sendChat(bob, { message: userText('run pwd on laptop') })
    expect(toolParts(bobsTurn.reply, 'run_command')[0].output).toMatchObject({
      ok: false,
      error: { status: 404, code: 'not_found' },
    })
    fake.reply(toolUse('read_file', { environment: 'repo', path: 'src/a.txt' }), { text: 'No.' })
    const read = await sendChat(bob, { message: userText('read it') })
    expect(toolParts(read.reply, 'read_file')[0].output).toMatchObject({ ok: false, error: { status: 404 } })
    await expect(machineProvider.runCommand(bobId, 'laptop', run('pwd'))).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    })
    expect((await bob.get('/_agent-native/machines')).body.machines).toEqual([])
    const bobDir = tempDir()
    const bobs = connect(app.baseUrl, (await token(bob)).token, bobDir)
    await bobs.waitFor('is online')
    fake.reply(toolUse('run_command', { environment: 'repo', command: 'pwd' }), { text: 'Ran.' })
    const own = await sendChat(bob, { message: userText('run pwd on laptop') })
    expect(toolParts(own.reply, 'run_command')[0].output).toMatchObject({
      ok: true,
      stdout: `${path.resolve(bobDir)}\n`,
    })
    expect((await machineProvider.runCommand(aliceId, 'laptop', run('pwd'))).stdout.trim()).toBe(
      path.resolve(dir),
    )
    await bobs.kill('SIGTERM')
  })

  it('answers through the instance that holds the socket (internal forwarding over HTTP)', async () => {
    const row = (await machineRow(aliceId, 'laptop'))!
    expect(row.instanceUrl).toBe(app.baseUrl)
    const input = { ownerId: aliceId, machineId: 'laptop', method: 'read_file' as const, timeoutMs: 5_000 }
    const offline = () => new Error('offline')
    expect(await forwardCall(row, { ...input, params: { path: 'src/a.txt' } }, offline)).toEqual({
      content: 'one\nthree\n',
    })
    const res = await fetch(`${app.baseUrl}/_agent-native/machines/internal/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer guess' },
      body: JSON.stringify({ ...input, params: { path: 'src/a.txt' } }),
    })
    expect(res.status).toBe(401)
  })

  it('a new connection of the same machine (--replace) replaces the old one, whose pending call fails at once', async () => {
    const pending = machineProvider.runCommand(
      aliceId,
      'laptop',
      run('echo started; sleep 20', 'run_replaced'),
    )
    await laptop.waitFor('run run_replaced')
    const replacement = connect(app.baseUrl, laptopToken, dir, ['--replace'])
    await expect(pending).rejects.toMatchObject({
      code: 'machine_disconnected',
      message: expect.stringContaining('Laptop'),
    })
    await laptop.waitFor('replaced this one; exiting')
    await replacement.waitFor('is online')
    laptop = replacement
    expect((await machineProvider.runCommand(aliceId, 'laptop', run('echo still here'))).stdout).toBe(
      'still here\n',
    )
  })

  it('killing the client mid-command fails the call at once with machine_disconnected, then answers offline', async () => {
    const pending = machineProvider.runCommand(
      aliceId,
      'laptop',
      run('echo started; sleep 20', 'run_killed', 60_000),
    )
    const failure = pending.catch((err: unknown) => err) // it fails while the kill is awaited
    await laptop.waitFor('run run_killed')
    await laptop.kill('SIGKILL')
    expect(await failure).toMatchObject({ status: 503, code: 'machine_disconnected' })
    await eventually(
      'the machine to be marked offline',
      async () => !(await machineRow(aliceId, 'laptop'))!.connected,
    )
    await expect(machineProvider.runCommand(aliceId, 'laptop', run('pwd'))).rejects.toMatchObject({
      code: 'machine_offline',
      message: expect.stringMatching(/^machine Laptop is offline \(last seen \d{4}-\d\d-\d\dT/),
    })
    expect((await alice.get('/_agent-native/machines')).body.machines[0].online).toBe(false)
    fake.reply(toolUse('run_command', { environment: 'repo', command: 'pwd' }), { text: 'Offline.' })
    const turn = await sendChat(alice, { message: userText('run pwd in my repo') })
    expect(toolParts(turn.reply, 'run_command')[0].output).toMatchObject({
      ok: false,
      error: {
        status: 503,
        message: expect.stringMatching(/^machine Laptop is offline \(last seen /),
      },
    })
  })
})

describe('stops', () => {
  it('a stop asked for while the machine is offline is delivered on reconnecting, not at the next retry', async () => {
    const relay = await startRelay(Number(new URL(app.baseUrl).port))
    const dir = tempDir()
    const client = connect(relay.url, (await token(alice, 'desk')).token, dir)
    await client.waitFor('is online')
    const pending = machineProvider.runCommand(
      aliceId,
      'desk',
      run('echo started; sleep 25', 'run_stop', 60_000),
    )
    await client.waitFor('run run_stop')
    relay.cut()
    await expect(pending).rejects.toMatchObject({ code: 'machine_disconnected' })
    await eventually('desk to go offline', async () => !(await machineRow(aliceId, 'desk'))!.connected)

    expect(await machineProvider.stop('run_stop')).toEqual({ machines: 1, delivered: 0 })
    expect(await machineProvider.stop('run_stop')).toEqual({ machines: 1, delivered: 0 }) // idempotent
    await expect(
      machineProvider.runCommand(aliceId, 'desk', run('echo again', 'run_stop')),
    ).rejects.toMatchObject({
      code: 'run_stopped',
    })

    relay.restore()
    const delivered = await eventually('the stop to be delivered', async () => {
      const [row] = await getDb().select().from(machineRuns).where(eq(machineRuns.runId, 'run_stop'))
      return row?.stopDeliveredAt
    })
    // Sent as the machine registered again, not by the retry that runs every STOP_RETRY_MS while
    // it stays connected: both times are the database's clock, so this is an order, not a stopwatch.
    const connectedAt = (await machineRow(aliceId, 'desk'))!.connectedAt!
    expect(delivered.getTime()).toBeGreaterThanOrEqual(connectedAt.getTime())
    expect(delivered.getTime()).toBeLessThan(connectedAt.getTime() + STOP_RETRY_MS)
    await client.waitFor('stop run_stop: 1 command(s) stopped') // the sleeping command was still running
    await relay.close()
  })
})

describe('cancelling a chat or a run stops its commands on the machine', () => {
  let client: MachineClient
  let scheduler: RunningScheduler

  beforeAll(async () => {
    scheduler = await startScheduler({
      handle: app.server.db,
      executor: createAgentExecutor(),
      graceMs: 1_000,
    })
    client = connect(app.baseUrl, (await token(alice, 'box')).token, tempDir())
    await client.waitFor('is online')
    const definition = '---\nprovider: machine:box\n---\n'
    expect((await alice.put(`${R}/personal/environments/box.md`, definition)).status).toBe(201)
  })
  afterAll(async () => {
    await scheduler?.stop()
  })

  const runLine = (prefix: string) => new RegExp(`run (${prefix}[^:\\s]*): sleep 30`)

  it('Stop in chat ends the turn and stops the command it started', async () => {
    fake.reply(toolUse('run_command', { environment: 'box', command: 'sleep 30' })) // then the fallback
    const turn = sendChat(alice, { message: userText('sleep on the box') })
    await client.waitFor(runLine('thr_'))
    const key = runLine('thr_').exec(client.output())![1]!
    const threadId = key.split('/')[0]!
    expect((await bob.post(`/_agent-native/agent/threads/${threadId}/stop`)).status).toBe(404)
    const stopped = await alice.post(`/_agent-native/agent/threads/${threadId}/stop`)
    expect(stopped.status).toBe(200)
    expect(stopped.body).toMatchObject({
      threadId,
      turnStopped: true,
      machines: { machines: 1, delivered: 1 },
    })
    await client.waitFor(`stop ${key}: 1 command(s) stopped`)
    expect((await turn).status).toBe(200)
    // The thread's next turn is not blocked by the stop.
    fake.reply(toolUse('run_command', { environment: 'box', command: 'echo next' }), { text: 'Ok.' })
    const next = await sendChat(alice, { message: userText('again'), threadId })
    expect(toolParts(next.reply, 'run_command')[0].output).toMatchObject({ ok: true, stdout: 'next\n' })
  })

  it('cancelling a job run stops the command it started', async () => {
    const job = await alice.post('/_agent-native/jobs', {
      name: 'sleeper',
      schedule: '0 7 * * 1-5',
      instructions: 'Sleep on the box.',
      environment: 'box',
    })
    expect(job.status).toBe(201)
    fake.reply(toolUse('run_command', { command: 'sleep 30' })) // then the fallback
    const started = await alice.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    const runId: string = started.body.run.id
    await client.waitFor(`run ${runId}: sleep 30`, 30_000)
    expect((await alice.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await client.waitFor(`stop ${runId}: 1 command(s) stopped`)
    const [row] = await getDb().select().from(machineRuns).where(eq(machineRuns.runId, runId))
    expect(row?.stopDeliveredAt).not.toBeNull()
    const listed = (await alice.get('/_agent-native/machines')).body.machines.find(
      (m: { id: string }) => m.id === 'box',
    )
    expect(listed.runs.map((r: { runId: string }) => r.runId)).toContain(runId)
    const page = await alice.get('/settings/machines')
    expect(page.body).toContain(`/jobs/${job.body.job.id}/runs/${runId}`)
  })
})

describe('tokens', () => {
  it('a token made by one person is revocable only by them, and a token revoked while its machine was offline is refused (401) at the next connect', async () => {
    const relay = await startRelay(Number(new URL(app.baseUrl).port))
    const { token: tok, id } = await token(alice, 'old box')
    const client = connect(relay.url, tok, tempDir())
    await client.waitFor('is online')
    relay.cut() // offline while it is revoked (boundary-machines.test.ts: revoking ends a live one)
    expect((await bob.delete(`/_agent-native/machines/tokens/${id}`)).status).toBe(404)
    expect((await alice.delete(`/_agent-native/machines/tokens/${id}`)).status).toBe(204)
    relay.restore()
    await client.waitFor('refused the token (401)')
    expect(
      (await alice.get('/_agent-native/machines')).body.tokens.map((t: { id: string }) => t.id),
    ).not.toContain(id)

    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/_agent-native/machines/connect`, {
        headers: { authorization: `Bearer ${tok}` },
      })
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.on('open', () => resolve(101))
    })
    expect(status).toBe(401)
    await relay.close()
  })

  it('a token needs a name and a signed-in person', async () => {
    const res = await alice.post('/_agent-native/machines/tokens', { name: '' })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('name')
    const anonymous = app.client()
    expect((await anonymous.post('/_agent-native/machines/tokens', { name: 'x' })).status).toBe(401)
    expect((await anonymous.get('/_agent-native/machines')).status).toBe(401)
  })
})

describe("a machine's own deny list", () => {
  it("judges a 60 KB line of the agent's against its owner's four-star pattern, and answers", async () => {
    // The client matched its deny list with a regular expression of `.*` per star, which
    // backtracks: this line took the client about ten minutes, answering nothing meanwhile.
    const { token: boxToken } = await token(alice, 'Deny list box')
    const box = connect(app.baseUrl, boxToken, tempDir(), ['--deny', 'git * push * --force * --no-verify*'])
    await box.waitFor('is online')
    const line = `true || git${' push --force'.repeat(4_600)}`
    expect(
      (await machineProvider.runCommand(aliceId, 'deny-list-box', run(line, 'run_deny_list'))).exitCode,
    ).toBe(0)
    await expect(
      machineProvider.runCommand(aliceId, 'deny-list-box', run(`${line} --no-verify`, 'run_deny_list')),
    ).rejects.toMatchObject({ status: 403, code: 'command_denied' })
    await box.kill()
  }, 60_000)
})

describe("a machine's client and the server's", () => {
  it('shows a machine running an older download as out of date, with how to update it', async () => {
    // A fix to the client reaches a computer only when its file is downloaded again, and nothing
    // told its owner: every client said 1.2.0. A client now sends the digest of its own file.
    const carol = app.client()
    await carol.signUp('Carol', 'carol@example.com')
    const machinesOf = async () =>
      (await carol.get('/_agent-native/machines')).body.machines as { id: string; version: string }[]
    const current = connect(app.baseUrl, (await token(carol, 'Current box')).token, tempDir())
    await current.waitFor('is online')
    // The same client with a line more: a download from before the server's last update.
    const olderFile = path.join(tempDir(), 'clockwork-machine.mjs')
    writeFileSync(olderFile, `${readFileSync(clientFile, 'utf8')}\n// an older build\n`)
    const older = startClient(olderFile, [
      ...['--server', app.baseUrl, '--token', (await token(carol, 'Older box')).token],
      ...['--dir', tempDir()],
    ])
    started.push(older)
    await older.waitFor('is online')

    const listed = await machinesOf()
    expect(listed.find((m) => m.id === 'current-box')).toMatchObject({
      clientCurrent: true,
      version: expect.stringMatching(/^1\.\d+\.0\+[0-9a-f]{12}$/),
    })
    expect(listed.find((m) => m.id === 'older-box')).toMatchObject({ clientCurrent: false })
    const page = String((await carol.get('/settings/machines')).body)
    expect(page.match(/client out of date/g)).toHaveLength(1)
    expect(page).toContain('data-testid="machine-older-box-outdated"')
    expect(page).toContain(
      `curl -fsSL ${app.baseUrl}/_agent-native/machines/client.mjs -o clockwork-machine.mjs`,
    )
    await current.kill()
    await older.kill()
  }, 60_000)
})
