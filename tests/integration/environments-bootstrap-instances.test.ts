/**
 * Bootstrap progress when the build runs on another instance: two compiled servers on one
 * database, each with its own ENVIRONMENTS_DIR. Instance A builds an environment (a setup step
 * waits on a gate file, so the build is certainly in progress); meanwhile, on instance B, the
 * environment page's endpoint shows the running step, and a chat there whose tool call is
 * forwarded to A streams the build's progress before its result.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { streamChat, toolOutputs as outputs } from '#tests/support/chat-stream.ts'
import { eventually } from '#tests/support/poll.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { startSpawnedAgentServers, type SpawnedAgentServers } from '#tests/support/spawned-agent-servers.ts'

const KEY = 'sk-ant-deployment-progress-instances-0013'

let agent: SpawnedAgentServers
let b: SpawnedServer
let fake: FakeAnthropic
let dir: string
let onA: ApiClient
let onB: ApiClient

const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})

beforeAll(async () => {
  agent = await startSpawnedAgentServers({
    key: KEY,
    dirPrefix: 'clockwork-progress-instances-',
    instances: ['a', 'b'],
    person: { name: 'Ines', email: 'ines-progress@example.com' },
    env: (made) => ({ ENVIRONMENT_SNAPSHOTS_DIR: path.join(made, 'snapshots') }),
  })
  ;({ fake, dir } = agent)
  ;[, b] = agent.servers as [SpawnedServer, SpawnedServer]
  ;[onA, onB] = agent.clients as [ApiClient, ApiClient]
}, 240_000)
afterAll(() => agent?.close())

const gated = (record: any) =>
  record?.status === 'running' &&
  record.steps[0]?.status === 'running' &&
  String(record.steps[0].tail).includes('waiting-42')

describe('a build on another instance', () => {
  it('shows on this instance’s page endpoint and in a chat here whose call is forwarded there', async () => {
    const definition = [
      '---',
      'setup:',
      `  - 'echo "waiting-$((6*7))"; until [ -e .gate ]; do sleep 0.1; done'`,
      '---',
      'Built on A.',
    ].join('\n')
    expect((await onA.put('/_agent-native/resources/personal/environments/far.md', definition)).status).toBe(
      201,
    )
    fake.replyWhen('build it on a', toolUse('list_directory', { environment: 'far' }), { text: 'Built.' })
    const onAChat = streamChat(onA, 'build it on a')

    // B reads the state A records: the page there follows a build it does not run.
    const seenOnB = await eventually('the running step on B', async () => {
      const res = await onB.get('/_agent-native/environments/far/bootstrap?scope=personal')
      return gated(res.body.bootstrap) ? res.body.bootstrap : undefined
    })
    expect(seenOnB.steps).toHaveLength(1)

    // A chat on B: its call is forwarded to A, where it waits for the build, and B streams it.
    fake.replyWhen('look from b', toolUse('read_file', { environment: 'far', path: 'AGENTS.md' }), {
      text: 'Read.',
    })
    const onBChat = streamChat(onB, 'look from b')
    await eventually('progress in the chat on B', () =>
      outputs(onBChat.chunks).find((c) => c.preliminary && gated((c.output as any).bootstrapping)),
    )
    expect(outputs(onBChat.chunks).some((c) => !c.preliminary)).toBe(false)

    const [folder] = await eventually('the folder on A', async () => {
      const postgres = await import('postgres')
      const sql = postgres.default(b.databaseUrl, { max: 1 })
      try {
        const rows = await sql<{ dir: string }[]>`select dir from environments where name = 'far'`
        return rows.length ? rows.map((r) => r.dir) : undefined
      } finally {
        await sql.end()
      }
    })
    writeFileSync(path.join(dir, 'a', folder!, '.gate'), '')

    const [chunksOnB] = await Promise.all([onBChat.done, onAChat.done])
    const result = outputs(chunksOnB).find((c) => !c.preliminary)!.output as any
    expect(result).toMatchObject({ ok: true, content: 'Built on A.' })
    // The summary comes from A's record, read at the end of the forwarded call.
    expect(result.bootstrap).toMatchObject({ status: 'ready', steps: [{ index: 0, status: 'ok' }] })
  }, 180_000)
})
