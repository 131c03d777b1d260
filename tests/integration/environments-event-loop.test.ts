/**
 * Item 5 of the boundary review, as the attacks a member makes: one command that makes thousands
 * of files, and a search with a pattern that makes a backtracking regex engine run for ages. While
 * each runs, the server must keep answering: the test asks /_agent-native/health again and again
 * and needs every answer (the timeout on each is only a hang guard; nothing here is timed). The
 * server runs in its own process, so a frozen server cannot freeze the test that watches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { startSpawnedAgentServers, type SpawnedAgentServers } from '#tests/support/spawned-agent-servers.ts'

const KEY = 'sk-ant-event-loop-0001'
const HANG_GUARD_MS = 15_000

let agent: SpawnedAgentServers
let server: SpawnedServer
let fake: FakeAnthropic
let member: ApiClient

beforeAll(async () => {
  agent = await startSpawnedAgentServers({
    key: KEY,
    dirPrefix: 'clockwork-loop-',
    instances: ['environments'],
    person: { name: 'Mallory', email: 'mallory-loop@example.com' },
  })
  fake = agent.fake
  server = agent.servers[0]!
  member = agent.clients[0]!
}, 240_000)
afterAll(() => agent?.close())

/** Asks for health until `work` settles; every answer must come. Returns how many came. */
async function healthWhile(work: Promise<unknown>): Promise<number> {
  let settled = false
  void work.finally(() => (settled = true)).catch(() => {})
  let answers = 0
  while (!settled || answers === 0) {
    const res = await fetch(`${server.baseUrl}/_agent-native/health`, {
      signal: AbortSignal.timeout(HANG_GUARD_MS),
    })
    expect(res.status).toBeLessThan(500)
    await res.arrayBuffer()
    answers++
  }
  return answers
}

describe('the server keeps answering', () => {
  it('while a command makes 5,000 files', async () => {
    fake.reply(
      toolUse('run_command', {
        command: 'mkdir -p many && cd many && seq 1 5000 | xargs touch && sleep 3 && ls | wc -l',
      }),
      { text: 'Done.' },
    )
    const turn = sendChat(member, { message: userText('make many files') })
    expect(await healthWhile(turn)).toBeGreaterThan(1)
    const [run] = toolParts((await turn).reply, 'run_command')
    expect(run.output).toMatchObject({ ok: true, exitCode: 0, stdout: '5000\n' })
    expect(run.output.files.length).toBeGreaterThan(0) // file events still come, bounded
  }, 180_000)

  it('while search_files runs a catastrophic pattern over one file', async () => {
    fake.reply(
      toolUse('write_file', { path: 'evil.txt', content: `${'a'.repeat(5000)}!\n` }),
      toolUse('search_files', { path: 'evil.txt', pattern: '^(a+)+$' }),
      { text: 'Done.' },
    )
    const turn = sendChat(member, { message: userText('search') })
    expect(await healthWhile(turn)).toBeGreaterThan(0)
    const [search] = toolParts((await turn).reply, 'search_files')
    expect(search.output).toMatchObject({ ok: true, output: 'No matches.' })
  }, 180_000)
})
