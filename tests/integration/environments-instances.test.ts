/**
 * Environments across two server instances on one PostgreSQL, each with its own ENVIRONMENTS_DIR:
 * a folder lives on the instance that created it, a tool call arriving on the other one is
 * forwarded there (the internal call machines use), and when that instance is gone the call fails
 * clearly until its owner rebuilds the environment here. Both servers' logs are captured: the
 * stored secret a command uses never appears in them. Also: an invalid definition is refused by
 * the compiled server's routes (the check start-up installs).
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { startSpawnedAgentServers, type SpawnedAgentServers } from '#tests/support/spawned-agent-servers.ts'

const KEY = 'sk-ant-deployment-instances-0010'
const SECRET_VALUE = 'ghs-instances-secret-4417-zeta'
const HASH = createHash('sha256').update(SECRET_VALUE).digest('hex').slice(0, 16)
const R = '/_agent-native/resources'

let agent: SpawnedAgentServers
let a: SpawnedServer
let b: SpawnedServer
let fake: FakeAnthropic
let onA: ApiClient
let onB: ApiClient

const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})

beforeAll(async () => {
  agent = await startSpawnedAgentServers({
    key: KEY,
    dirPrefix: 'clockwork-env-instances-',
    instances: ['a', 'b'],
    person: { name: 'Ana', email: 'ana@example.com' },
    env: { LOG_LEVEL: 'debug' },
  })
  fake = agent.fake
  ;[a, b] = agent.servers as [SpawnedServer, SpawnedServer]
  ;[onA, onB] = agent.clients as [ApiClient, ApiClient]
}, 240_000)
afterAll(() => agent?.close())

describe('the compiled server', () => {
  it('refuses an invalid environment definition through its routes', async () => {
    const put = await onA.put(`${R}/personal/environments/built.md`, '---\nprovider: podman\n---\n')
    expect(put.status).toBe(400)
    expect(put.body.error).toMatchObject({ field: 'provider', message: expect.stringMatching(/^Line 2: /) })
    expect((await onA.get(`${R}/personal/environments/built.md`)).status).toBe(404)
  })
})

describe('an environment on two instances', () => {
  it('is created where it is first used and served there when a call arrives on the other instance', async () => {
    const saved = await onA.request('PUT', '/_agent-native/secrets/personal/API_TOKEN', {
      value: SECRET_VALUE,
    })
    expect(saved.status).toBe(200)
    const definition = '---\nsecrets: [API_TOKEN]\n---\nShared work.\n'
    expect((await onA.put(`${R}/personal/environments/work.md`, definition)).status).toBe(201)
    fake.reply(
      toolUse('write_file', { environment: 'work', path: 'made-on.txt', content: 'instance a\n' }),
      toolUse('run_command', {
        environment: 'work',
        command: `[ "$(printf %s "$API_TOKEN" | sha256sum | cut -c1-16)" = ${HASH} ] && echo "injected $API_TOKEN"`,
      }),
      { text: 'Done.' },
    )
    const first = await sendChat(onA, { message: userText('set up') })
    expect(toolParts(first.reply, 'run_command')[0].output).toMatchObject({
      ok: true,
      stdout: 'injected ••••\n',
    })

    // On B, the same environment: the file made on A is there, because B forwarded the call to A.
    fake.reply(
      toolUse('run_command', { environment: 'work', command: 'cat made-on.txt; echo "$API_TOKEN" | wc -c' }),
      toolUse('read_file', { environment: 'work', path: 'made-on.txt' }),
      { text: 'Done.' },
    )
    const second = await sendChat(onB, { message: userText('check') })
    expect(toolParts(second.reply, 'run_command')[0].output).toMatchObject({
      ok: true,
      exitCode: 0,
      stdout: `instance a\n${SECRET_VALUE.length + 1}\n`,
    })
    expect(toolParts(second.reply, 'read_file')[0].output).toMatchObject({ ok: true, content: 'instance a' })

    // A forwarded call needs the instances' shared secret.
    const guess = await fetch(`${a.baseUrl}/_agent-native/environments/internal/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer guess' },
      body: '{}',
    })
    expect(guess.status).toBe(401)
  })

  it('fails clearly when its instance is gone, until its owner rebuilds it here (starting empty)', async () => {
    const [row] = await queryEnvironment()
    expect(row).toBeDefined()
    await a.stop()
    fake.reply(toolUse('run_command', { environment: 'work', command: 'ls' }), { text: 'Gone.' })
    const gone = await sendChat(onB, { message: userText('ls') })
    const failure = toolParts(gone.reply, 'run_command')[0].output
    expect(failure).toMatchObject({ ok: false, error: { status: 503, code: 'environment_unreachable' } })
    expect(failure.error.message).toContain('does not answer')
    expect(failure.error.message).toContain(`POST /_agent-native/environments/${row!.id}/rebuild`)

    const outsider = new ApiClient(b.baseUrl)
    await outsider.signUp('Otto', 'otto@example.com')
    expect((await outsider.post(`/_agent-native/environments/${row!.id}/rebuild`)).status).toBe(404)
    const rebuilt = await onB.post(`/_agent-native/environments/${row!.id}/rebuild`)
    expect(rebuilt.status).toBe(200)
    expect(rebuilt.body).toMatchObject({ id: row!.id, name: 'work' })
    expect((await onB.post(`/_agent-native/environments/${row!.id}/rebuild`)).status).toBe(409)

    fake.reply(toolUse('run_command', { environment: 'work', command: 'ls; echo ok' }), { text: 'Fresh.' })
    const fresh = await sendChat(onB, { message: userText('ls') })
    // Starting empty: only the projected instructions (AGENTS.md and its links), not A's file.
    const listing = toolParts(fresh.reply, 'run_command')[0].output
    expect(listing).toMatchObject({ ok: true })
    expect(listing.stdout.trim().split('\n')).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'ok'])
  })

  it("never writes the stored secret to either server's log", () => {
    const logs = a.output() + b.output()
    expect(logs).toContain('environment rebuilt on this instance') // the capture works
    expect(logs).not.toContain(SECRET_VALUE)
  })
})

/** The environment's record, read through B's database (the instances share it). */
async function queryEnvironment(): Promise<{ id: string }[]> {
  const postgres = await import('postgres')
  const sql = postgres.default(b.databaseUrl, { max: 1 })
  try {
    return await sql<{ id: string }[]>`select id from environments where name = 'work'`
  } finally {
    await sql.end()
  }
}
