/**
 * A run's transcript and a chat thread keep the model's notes between tool calls (decision 0460):
 * a model that returns them as thinking blocks (Sonnet 5.5) is asked to show them, and what it
 * writes is stored before the tool call it precedes; an older model is asked for no thinking.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { resetEnvCache } from '#server/env.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse, withNote } from '#tests/support/fake-anthropic.ts'
import { runNow } from '#tests/support/runs.ts'

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-deployment-notes-0460', scheduler: true })
})
afterAll(() => agent?.close())
beforeEach(() => {
  agent.fake.requests.length = 0
})

/** Runs `act` with AGENT_MODEL set to `model`, then back to the tests' default. */
async function onModel<T>(model: string, act: () => Promise<T>): Promise<T> {
  process.env.AGENT_MODEL = model
  resetEnvCache()
  try {
    return await act()
  } finally {
    process.env.AGENT_MODEL = 'anthropic:claude-sonnet-4-5'
    resetEnvCache()
  }
}

function runJob(model: string, name: string) {
  return onModel(model, async () => {
    const res = await agent.team.creator.client.post('/_agent-native/jobs', {
      name,
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: `Write today's numbers to reports/${name}.md`,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return await runNow(agent.team.creator.client, res.body.job.id)
  })
}

const write = (name: string) =>
  toolUse('workspace', { action: 'write', path: `reports/${name}.md`, content: '42' })

describe("a run's notes between tool calls", () => {
  it('asks Sonnet 5.5 to show them and stores each before the tool call it precedes', async () => {
    const { fake } = agent
    fake.reply(withNote('Let me write the report first.', write('notes')), {
      // An empty note is what the model sends when it does not show one.
      content: [
        { type: 'thinking', thinking: '' },
        { type: 'text', text: 'Wrote the report.' },
      ],
    })
    const { run, transcript } = await runJob('anthropic:claude-sonnet-5-5', 'notes')
    expect(run.status, run.error).toBe('success')

    expect(fake.requests.map((r) => r.thinking)).toEqual([
      { type: 'adaptive', display: 'updates' },
      { type: 'adaptive', display: 'updates' },
    ])
    expect(fake.requests[0]!.headers['anthropic-beta']).toContain('thinking-display-updates')
    // The note goes back to the model, signed, with the tool call it came with.
    const said = fake.requests[1]!.body.messages[1]
    expect(said.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Let me write the report first.',
      signature: 'sig_fake_1_0',
    })

    const parts = transcript[1].parts as { type: string; text?: string }[]
    const kinds = parts.filter((p) => p.type !== 'step-start').map((p) => [p.type, p.text])
    expect(kinds).toEqual([
      ['reasoning', 'Let me write the report first.'],
      ['tool-workspace', undefined],
      ['reasoning', ''],
      ['text', 'Wrote the report.'],
    ])
  })

  it('asks Sonnet 4.5, which would refuse adaptive thinking, for none', async () => {
    const { fake } = agent
    fake.reply(write('older'), { text: 'Wrote the report.' })
    const { run } = await runJob('anthropic:claude-sonnet-4-5', 'older')
    expect(run.status, run.error).toBe('success')
    expect(fake.requests.map((r) => r.thinking)).toEqual([null, null])
    expect(fake.requests[0]!.headers['anthropic-beta'] ?? '').not.toContain('thinking')
  })
})

describe("a chat's notes", () => {
  it('keeps a note in the thread and gives it back, signed, to the model on the next turn', async () => {
    const { fake } = agent
    const client = agent.team.member.client
    await onModel('anthropic:claude-sonnet-5-5', async () => {
      fake.reply(withNote('Nothing to look up; answering.', { content: [{ type: 'text', text: 'Hi Mia.' }] }))
      const first = await sendChat(client, { message: userText('hello') })
      expect(first.status).toBe(200)
      fake.reply({ text: 'Still here.' })
      const second = await sendChat(client, { threadId: first.threadId, message: userText('still there?') })
      expect(second.status).toBe(200)

      const thread = (await client.get(`/_agent-native/agent/threads/${first.threadId}`)).body
      expect(JSON.stringify(thread)).toContain('Nothing to look up; answering.')
      const [, said] = fake.requests.at(-1)!.body.messages
      expect(said.content[0]).toEqual({
        type: 'thinking',
        thinking: 'Nothing to look up; answering.',
        signature: 'sig_fake_1_0',
      })
    })
  })
})
