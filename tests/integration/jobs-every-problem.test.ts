/**
 * Validation reports every bad field at once (issue 26 item 6), through every door over real
 * HTTP: the jobs API's 400 body lists each field with its own message, a job file with a bad name
 * and a bad schedule names both, the new-job page's action answers both for the form, and the
 * agent's manage-jobs tool hands the model all of them. Nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-deployment-key-0026' })
})
afterAll(() => agent?.close())

const fieldsOf = (error: { fields?: { field: string }[] }) => (error.fields ?? []).map((p) => p.field)

describe('every bad field at once', () => {
  it('the jobs API names the name, the schedule and the retries in one 400', async () => {
    const before = await snapshotTables()
    const res = await agent.team.member.client.post(J, {
      name: 'Bad Name',
      schedule: '0 25 * * *',
      instructions: 'Post the numbers.',
      retries: 9,
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('bad_request')
    expect(res.body.error.field).toBe('name')
    expect(fieldsOf(res.body.error).sort()).toEqual(['name', 'retries', 'schedule'])
    for (const problem of res.body.error.fields) {
      expect(problem.message.startsWith(`${problem.field}: `), problem.message).toBe(true)
      expect(res.body.error.message).toContain(problem.message)
    }
    expect(res.body.error.fields.find((p: { field: string }) => p.field === 'schedule').message).toMatch(
      /hour/,
    )
    expect(await snapshotTables()).toEqual(before)
  })

  it('one bad field keeps the one-field shape', async () => {
    const res = await agent.team.member.client.post(J, {
      name: 'ok-name',
      schedule: '0 25 * * *',
      instructions: 'Go.',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'bad_request', field: 'schedule' })
    expect(res.body.error.fields).toBeUndefined()
  })

  it('a PATCH names every bad field too', async () => {
    const created = await agent.team.member.client.post(J, {
      name: 'patch-me',
      schedule: '0 7 * * *',
      instructions: 'Go.',
    })
    expect(created.status).toBe(201)
    const res = await agent.team.member.client.patch(`${J}/${created.body.job.id}`, {
      timezone: 'Mars/Olympus',
      timeoutMinutes: 0,
    })
    expect(res.status).toBe(400)
    expect(fieldsOf(res.body.error).sort()).toEqual(['timeoutMinutes', 'timezone'])
  })

  it('a job file with a bad name and a bad schedule names both', async () => {
    const before = await snapshotTables()
    const res = await agent.team.member.client.put(
      `${R}/personal/jobs/Bad_Name.md`,
      '---\nschedule: "0 25 * * *"\nretries: 9\n---\nGo.\n',
    )
    expect(res.status).toBe(400)
    expect(fieldsOf(res.body.error).sort()).toEqual(['name', 'retries', 'schedule'])
    expect(await snapshotTables()).toEqual(before)
  })

  it('the new-job page answers every field for the form', async () => {
    const before = await snapshotTables()
    const form = new URLSearchParams({
      name: 'Bad Name',
      schedule: '0 25 * * *',
      instructions: 'Go.',
      retries: '9',
    })
    const res = await agent.team.member.client.request('POST', '/jobs/new.data', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(res.status).toBe(200)
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
    for (const field of ['name', 'schedule', 'retries']) expect(text).toContain(`${field}: `)
    expect(await snapshotTables()).toEqual(before)
  })

  it('the agent’s manage-jobs tool returns every problem to the model', async () => {
    agent.fake.reply(
      {
        content: [
          {
            type: 'tool_use' as const,
            name: 'manage-jobs',
            input: {
              action: 'create',
              name: 'Morning Digest',
              schedule: '0 25 * * *',
              instructions: 'Summarise the news.',
            },
          },
        ],
      },
      { text: 'Both the name and the schedule need fixing.' },
    )
    const turn = await sendChat(agent.team.member.client, { message: userText('make a digest job') })
    expect(turn.status).toBe(200)
    const [step] = toolParts(turn.reply, 'manage-jobs')
    expect(step.output).toMatchObject({ ok: false, action: 'create', error: { status: 400, field: 'name' } })
    expect(fieldsOf(step.output.error).sort()).toEqual(['name', 'schedule'])
    // What the model read is the same list.
    const toolResult = JSON.stringify(agent.fake.requests.at(-1)!.body.messages)
    expect(toolResult).toContain('name: ')
    expect(toolResult).toContain('schedule: ')
  })
})
