/**
 * `provider: docker` through the real agent tools over real HTTP, with the fake model. The folder
 * is this server's (write_file works with or without a Docker engine); run_command needs the
 * engine: without one it answers "docker is unavailable on this server: …", with one it runs in a
 * container (the local test image) with the folder at /workspace. CI requires the engine
 * (REQUIRE_DOCKER=1, tests/support/docker.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dockerState } from '#server/environments/providers/providers-docker.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'

const KEY = 'sk-ant-deployment-docker-0013'

let agent: AgentApp<false>
let fake: FakeAnthropic
let ana: ApiClient

const docker = await dockerForTests()

beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    environmentsDir: 'clockwork-envs-docker-',
    team: false,
    env: docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {},
  })
  fake = agent.fake
  ana = agent.app.client()
  await ana.signUp('Ana', 'ana@example.com')
}, 120_000)

afterAll(() => agent?.close())

describe('an environment with provider: docker', () => {
  it('writes files in its folder here and runs commands only where a Docker engine answers', async () => {
    const definition = '---\nprovider: docker\npolicy:\n  network:\n    allow: []\n---\nIn a container.\n'
    expect((await ana.put('/_agent-native/resources/personal/environments/box.md', definition)).status).toBe(
      201,
    )
    fake.reply(
      toolUse('write_file', { environment: 'box', path: 'hello.txt', content: 'hi\n' }),
      toolUse('run_command', { environment: 'box', command: 'cat hello.txt; pwd' }),
      { text: 'Done.' },
    )
    const chat = await sendChat(ana, { message: userText('try it') })
    expect(toolParts(chat.reply, 'write_file')[0].output).toMatchObject({ ok: true, path: 'hello.txt' })
    const ran = toolParts(chat.reply, 'run_command')[0].output
    if (docker.ok) {
      expect(ran).toMatchObject({ ok: true, exitCode: 0, stdout: 'hi\n/workspace\n', mechanism: 'docker' })
    } else {
      const daemon = await dockerState()
      expect(ran).toMatchObject({ ok: false, error: { status: 503 } })
      expect(ran.error.message).toBe(`docker is unavailable on this server: ${daemon.ok || daemon.why}`)
    }
  })
})
