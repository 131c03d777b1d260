/**
 * One module graph per process: every server module is loaded once, so an error made by one part
 * of the server is recognised by every other. It once was not: the production build held two
 * copies of server/ (the route bundle's and the server entry's), and a machine that disconnected
 * mid-command answered `500 internal` because the `HttpError` one copy threw failed the other's
 * `instanceof`. Pinned on the build's output and, from outside, on that very case in both entries.
 */
import { readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { downloadClient, startClient, type MachineClient } from '#tests/support/machine-client.ts'
import {
  sharedPostgres,
  spawnServer,
  type ServerEntry,
  type SpawnedServer,
} from '#tests/support/spawn-server.ts'
import { inject } from 'vitest'
import { importsOf } from '#tests/architecture/import-graph.ts'

const root = path.resolve(import.meta.dirname, '../..')

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

/** Every `export class Name` in server/ (tests aside). */
function serverClasses(): string[] {
  const names = new Set<string>()
  for (const entry of readdirSync(path.join(root, 'server'), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
    for (const match of text.matchAll(/^export class (\w+)/gm)) names.add(match[1]!)
  }
  return [...names]
}

describe('the production build', () => {
  it('is one server bundle that defines each server class at most once, HttpError exactly once', () => {
    const serverDir = path.join(root, 'build/server')
    const files = filesUnder(serverDir)
    expect(files.length, 'no build: run `npm run build` first (`npm test` does)').toBeGreaterThan(0)
    // Nothing else under build/ may carry server code of its own: migrate.js runs as its own process,
    // judge-worker.js as a worker thread that only judges command lines (policy/judge.ts).
    const others = readdirSync(path.join(root, 'build')).filter((name) => name.endsWith('.js'))
    expect(others.sort()).toEqual(['judge-worker.js', 'migrate.js'])

    const code = files.map((file) => readFileSync(file, 'utf8')).join('\n')
    const classes = serverClasses()
    expect(classes).toContain('HttpError')
    const definitions = Object.fromEntries(
      classes.map((name) => [
        name,
        code.match(new RegExp(`\\bclass ${name}\\b|\\b${name} = class\\b`, 'g'))?.length ?? 0,
      ]),
    )
    expect(definitions.HttpError).toBe(1)
    expect(Object.entries(definitions).filter(([, count]) => count > 1)).toEqual([])
  })
})

describe('the development entry', () => {
  it('loads no server module itself: only Vite, which then loads the server and the routes', () => {
    const values = (file: string) =>
      importsOf(root, file)
        .filter((edge) => !edge.typeOnly)
        .map((edge) => edge.to)
    expect(values('server/dev.ts')).toEqual(['server/http/vite-dev.ts'])
    expect(values('server/http/vite-dev.ts')).toEqual([])
  })
})

const KEY = 'sk-ant-deployment-one-graph'
const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})

describe.each<ServerEntry>(['compiled', 'source'])('the %s server', (entry) => {
  let fake: FakeAnthropic
  let server: SpawnedServer
  let dir: string
  let laptop: MachineClient | undefined

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-one-graph-'))
    fake = await startFakeAnthropic({ apiKey: KEY, fallback: { text: 'Done.' } })
    const postgres = sharedPostgres(inject('postgresUrl'))
    server = await spawnServer(
      { SCHEDULER_ENABLED: 'false', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.baseURL },
      postgres,
      entry,
    )
  }, 180_000)

  afterAll(async () => {
    await laptop?.kill()
    await server?.stop()
    await fake?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("answers machine_disconnected when the machine's client dies mid-command", async () => {
    const alice = new ApiClient(server.baseUrl)
    await alice.signUp('Alice', 'alice@example.com')
    // The token named "laptop" connects the machine `laptop`.
    const made = await alice.post('/_agent-native/machines/tokens', { name: 'laptop' })
    expect(made.status).toBe(201)
    const clientFile = await downloadClient(server.baseUrl)
    const args = ['--server', server.baseUrl, '--token', made.body.token, '--dir', dir]
    laptop = startClient(clientFile, args)
    await laptop.waitFor('is online')
    const definition = '---\nprovider: machine:laptop\n---\nA repository on my laptop.\n'
    expect(
      (await alice.put('/_agent-native/resources/personal/environments/repo.md', definition)).status,
    ).toBe(201)

    fake.reply(toolUse('run_command', { environment: 'repo', command: 'echo started; sleep 60' }), {
      text: 'The laptop went away.',
    })
    const turn = sendChat(alice, { message: userText('run the long thing on my laptop') })
    await laptop.waitFor(/\brun \S+/)
    await laptop.kill('SIGKILL')

    const output = toolParts((await turn).reply, 'run_command')[0].output
    expect(output).toMatchObject({ ok: false, error: { status: 503, code: 'machine_disconnected' } })
  }, 120_000)
})
