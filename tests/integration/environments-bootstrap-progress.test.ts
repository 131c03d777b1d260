/**
 * Bootstrap progress is visible while setup runs, through the real agent tools over real HTTP.
 * Setup steps wait on gate files the test creates, so every intermediate state is observed for
 * certain, never by timing: the recorded state (what the environment page polls) shows the
 * running step with its output so far, then a parallel group running, before the final state;
 * the chat stream carries the build's progress for the tool call before its result arrives, and
 * the model never sees it. A failing step stops the build with its output. A saved chat and a job
 * run's transcript keep a compact record (steps and times), not the ticks or the output.
 */
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { UIMessageChunk } from 'ai'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import {
  bootstrappingOf as progressOf,
  streamChat,
  toolOutputs as outputs,
} from '#tests/support/chat-stream.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { eventually } from '#tests/support/poll.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { TestApp } from '#tests/support/test-app.ts'

const KEY = 'sk-ant-deployment-progress-0013'
const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

let agent: AgentApp<false>
let app: TestApp
let fake: FakeAnthropic
let dir: string
let pia: ApiClient

beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    team: false,
    scheduler: true,
    environmentsDir: 'clockwork-bootstrap-progress-',
    env: (made) => ({ ENVIRONMENT_SNAPSHOTS_DIR: path.join(made, 'snapshots') }),
  })
  ;({ app, fake } = agent)
  dir = agent.dir!
  pia = app.client()
  await pia.signUp('Pia Progress', 'pia-progress@example.com')
})
afterAll(() => agent?.close())

const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})
const define = async (name: string, setup: string[]) => {
  const file = ['---', 'setup:', ...setup.map((s) => `  - ${s}`), '---', `Work in ${name}.`].join('\n')
  expect((await pia.put(`${R}/personal/environments/${name}.md`, file)).status).toBe(201)
}
const rootOf = async (name: string) => {
  const [row] = await queryRows<{ dir: string }>(
    app.server.db.db,
    sql`select dir from environments where name = ${name}`,
  )
  return path.join(dir, 'environments', row!.dir)
}
const bootstrapOf = async (name: string) => {
  const res = await pia.get(`${E}/${name}/bootstrap?scope=personal`)
  expect(res.status).toBe(200)
  return res.body.bootstrap
}
/** Reads the recorded bootstrap until `seen` holds for it (a gate keeps the state until then). */
const until = (name: string, seen: (record: any) => boolean) =>
  eventually(`the expected bootstrap of ${name}`, async () => {
    const record = await bootstrapOf(name)
    return record && seen(record) ? record : undefined
  })

async function untilChunk(chunks: UIMessageChunk[], seen: (progress: any) => boolean) {
  return eventually('the expected progress in the chat', () => {
    const hit = outputs(chunks).find((c) => progressOf(c) && seen(progressOf(c)))
    return hit ? progressOf(hit) : undefined
  })
}

const waitingAt = (gate: string) => `echo "waiting-$((6*7))"; until [ -e ${gate} ]; do sleep 0.1; done`

describe('a build in progress', () => {
  it('is recorded step by step with output so far, and streamed to the chat before the tool result', async () => {
    await define('slow', [
      `'echo "first-$((6*7))"'`,
      `'${waitingAt('.gate-1')}'`,
      `['echo left; until [ -e .gate-2 ]; do sleep 0.1; done', 'echo right; until [ -e .gate-2 ]; do sleep 0.1; done']`,
    ])
    fake.reply(toolUse('list_directory', { environment: 'slow' }), { text: 'Listed.' })
    const chat = streamChat(pia, 'look at slow')

    // The page's view: the second step runs, its output so far recorded, the first one done.
    const gated = (r: any) =>
      r.status === 'running' &&
      r.phase === 'setup' &&
      r.steps[1]?.status === 'running' &&
      String(r.steps[1]?.tail).includes('waiting-42')
    const running = await until('slow', gated)
    expect(running.steps[0]).toMatchObject({ status: 'ok', exitCode: 0, tail: 'first-42\n' })
    expect(running.steps[1].endedAt).toBeUndefined()
    expect(running.finishedAt).toBeUndefined()
    // The chat shows the same, while the tool call is still running (the gate is still shut).
    const streamed = await untilChunk(chat.chunks, gated)
    expect(streamed.steps[0]).toMatchObject({ command: `echo "first-$((6*7))"`, status: 'ok' })
    expect(outputs(chat.chunks).some((c) => !c.preliminary)).toBe(false)

    const root = await rootOf('slow')
    writeFileSync(path.join(root, '.gate-1'), '')
    // Then the parallel group: both of its steps running at once, each marked as a member.
    const parallel = await until(
      'slow',
      (r) => r.steps.length === 4 && r.steps[2].status === 'running' && r.steps[3].status === 'running',
    )
    expect(parallel.steps.slice(2).map((s: any) => [s.index, s.member])).toEqual([
      [2, 0],
      [2, 1],
    ])
    await untilChunk(chat.chunks, (p) => p.steps.filter((s: any) => s.status === 'running').length === 2)
    writeFileSync(path.join(root, '.gate-2'), '')

    const chunks = await chat.done
    const final = await bootstrapOf('slow')
    expect(final).toMatchObject({ status: 'ready', phase: 'done' })
    expect(final.steps.map((s: any) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok'])

    // In the stream: progress first, then the one result; the result keeps steps and times only.
    const results = outputs(chunks)
    const lastProgress = results.findLastIndex((c) => progressOf(c))
    const result = results.findIndex((c) => !c.preliminary)
    expect(lastProgress).toBeGreaterThanOrEqual(0)
    expect(result).toBeGreaterThan(lastProgress)
    const output = results[result]!.output as any
    expect(output).toMatchObject({ ok: true, environment: 'slow' })
    expect(output.bootstrapping).toBeUndefined()
    expect(output.bootstrap).toMatchObject({ status: 'ready', steps: expect.any(Array) })
    expect(output.bootstrap.steps).toHaveLength(4)
    for (const step of output.bootstrap.steps) {
      expect(step.elapsedMs).toBeGreaterThanOrEqual(0)
      expect(step.tail).toBeUndefined()
    }
    expect(output.bootstrap.elapsedMs).toBeGreaterThanOrEqual(output.bootstrap.steps[1].elapsedMs)

    // The model got the result only; the saved thread keeps the compact record, not the ticks.
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).not.toContain('bootstrapping')
    const threadId = (chunks.find((c) => c.type === 'start') as any).messageMetadata.threadId
    const saved = JSON.stringify((await pia.get(`/_agent-native/agent/threads/${threadId}`)).body)
    expect(saved).toContain('"bootstrap"')
    expect(saved).not.toContain('bootstrapping')
    expect(saved).not.toContain('first-42') // output stays on the environment page
  })

  it('answers the environment page by name or id, and refuses a bad scope naming it', async () => {
    const byName = await pia.get(`${E}/slow/bootstrap?scope=personal`)
    const [row] = await queryRows<{ id: string }>(
      app.server.db.db,
      sql`select id from environments where name = 'slow'`,
    )
    const byId = await pia.get(`${E}/${row!.id}/bootstrap`)
    expect(byId.body).toEqual(byName.body)
    const bad = await pia.get(`${E}/slow/bootstrap?scope=everyone`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('scope')
    expect((await pia.get(`${E}/nothing-here/bootstrap`)).status).toBe(404)
    // Defined, never used: no build yet.
    await define('unused', ['echo hi'])
    expect(await bootstrapOf('unused')).toBeNull()
  })
})

describe('a failing step', () => {
  it('stops the build with its output, in the record, the chat and the tool result', async () => {
    await define('broken', [`'echo "fail-$((6*7))" >&2; exit 3'`, `'echo never > never.txt'`])
    fake.reply(toolUse('run_command', { environment: 'broken', command: 'echo hi' }), { text: 'Failed.' })
    const turn = await sendChat(pia, { message: userText('use broken') })
    expect(turn.status).toBe(200)

    const [call] = toolParts(turn.reply, 'run_command')
    expect(call.output).toMatchObject({ ok: false, error: { status: 400, field: 'setup' } })
    expect(call.output.error.message).toMatch(/step 1 .* failed with exit 3:\nfail-42/)
    expect(call.output.bootstrap).toMatchObject({
      status: 'failed',
      phase: 'setup',
      steps: [{ index: 0, status: 'failed', exitCode: 3 }],
    })
    // The failing step was streamed as it ran, before the result.
    const results = outputs(turn.chunks)
    expect(results.findIndex((c) => progressOf(c))).toBeLessThan(results.findIndex((c) => !c.preliminary))

    const record = await bootstrapOf('broken')
    expect(record).toMatchObject({ status: 'failed', phase: 'setup' })
    expect(record.steps).toHaveLength(1)
    expect(record.steps[0]).toMatchObject({ status: 'failed', exitCode: 3, tail: 'fail-42\n' })
    expect(record.error).toContain('fail-42')
    expect(existsSync(path.join(await rootOf('broken'), 'never.txt'))).toBe(false)
  })
})

describe('a job run', () => {
  it('keeps the build in its transcript as steps and times, without the output', async () => {
    await define('nightly', [`'echo "job-$((6*7))"'`])
    const job = await pia.post('/_agent-native/jobs', {
      name: 'nightly-build',
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      instructions: 'Build and report.',
      environment: 'nightly',
    })
    expect(job.status).toBe(201)
    fake.reply(toolUse('run_command', { command: 'echo report' }), { text: 'Reported.' })
    const started = await pia.post(`/_agent-native/jobs/${job.body.job.id}/run`)
    expect(started.status).toBe(202)
    const got = await waitForRun(pia, started.body.run.id, { timeout: 60_000 })
    expect(got.run.status).toBe('success')
    const parts = got.transcript.flatMap((m: { parts: any[] }) => m.parts)
    const call = parts.find((p: any) => p.type === 'tool-run_command')
    expect(call.output).toMatchObject({
      ok: true,
      stdout: 'report\n',
      bootstrap: { status: 'ready', steps: [{ command: 'echo "job-$((6*7))"', status: 'ok' }] },
    })
    expect(call.output.bootstrap.steps[0].elapsedMs).toBeGreaterThanOrEqual(0)
    const transcript = JSON.stringify(got.transcript)
    expect(transcript).not.toContain('bootstrapping')
    expect(transcript).not.toContain('job-42')
  })
})
