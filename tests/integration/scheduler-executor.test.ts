/**
 * The agent executor under the scheduler core: a scheduled run calls the (fake) Anthropic Messages
 * API over real HTTP through the AI SDK, stores the reply as the run's transcript with token usage,
 * fails with a how-to message when no key is configured, and is cut off (request aborted) at its
 * timeout. Also checks the fake itself speaks streaming and tool_use, which the agent relies on.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { eq, sql } from 'drizzle-orm'
import { generateText, streamText, tool } from 'ai'
import { z } from 'zod'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { resetEnvCache } from '#server/env.ts'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { jobs } from '#server/db/schema/index.ts'
import { HttpError } from '#server/lib/errors.ts'
import type { RunResult } from '#server/runs/executor.ts'
import { getRunWithTranscript } from '#server/runs/service.ts'
import { readTranscript } from '#server/runs/threads.ts'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { POLL } from '#tests/support/poll.ts'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { createOwner, insertJob, resetJobs, runsOf, type Owner } from '#tests/support/scheduler-fixtures.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from '#tests/support/scheduler-db.ts'

let database: SchedulerTestDatabase
let owner: Owner
let fake: FakeAnthropic
beforeAll(async () => {
  database = await createSchedulerDatabase()
  owner = await createOwner(database.handle.db)
  fake = await startFakeAnthropic({ apiKey: 'sk-test-123' })
})
afterAll(async () => {
  await fake?.close()
  await database?.drop()
})
beforeEach(async () => {
  await resetJobs(database.handle.db)
  fake.requests.length = 0
  configure({
    ANTHROPIC_API_KEY: 'sk-test-123',
    ANTHROPIC_BASE_URL: fake.baseURL,
    AGENT_MODEL: 'anthropic:claude-test-1',
  })
})
const db = () => database.handle.db

function configure(vars: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  resetEnvCache()
}

/**
 * Runs one due job through the scheduler core with the real agent executor; `around` (if given)
 * runs the executor inside whatever conditions the test sets up for it.
 */
async function runOnce(
  fixture: { instructions?: string; timeoutMinutes?: number } = {},
  onStarted?: (clock: ManualClock) => Promise<void>,
  around?: (execute: () => Promise<RunResult>, jobId: string) => Promise<RunResult>,
) {
  const agent = createAgentExecutor()
  const clock = new ManualClock('2026-09-01T07:00:00.005Z')
  const core = createSchedulerCore({
    db: db(),
    instance: 'exec',
    clock,
    leaseMs: 86_400_000,
    executor: (ctx) => (around ? around(() => agent(ctx), ctx.job.id) : agent(ctx)),
  })
  const id = await insertJob(
    db(),
    owner,
    { schedule: '0 7 * * *', ...fixture },
    new Date('2026-09-01T06:00:00Z'),
  )
  await core.tick()
  await onStarted?.(clock)
  await core.idle()
  const [run] = await runsOf(db(), id)
  return { run: run!, transcript: run?.threadId ? await readTranscript(run.threadId, db()) : [] }
}

const textOf = (parts: unknown[]) =>
  (parts as { type: string; text?: string }[]).find((p) => p.type === 'text')?.text

it('sends the instructions as the user message and stores the reply and token usage', async () => {
  fake.reply({ text: 'Yesterday: 42 sign-ups.', usage: { input_tokens: 321, output_tokens: 17 } })
  const { run, transcript } = await runOnce({ instructions: 'Summarise yesterday’s sign-ups.' })
  expect(run).toMatchObject({ status: 'success', inputTokens: 321, outputTokens: 17, error: null })
  expect(transcript.map((m) => [m.role, textOf(m.parts)])).toEqual([
    ['user', 'Summarise yesterday’s sign-ups.'],
    ['assistant', 'Yesterday: 42 sign-ups.'],
  ])
  const [request] = fake.requests
  expect(request!.headers['x-api-key']).toBe('sk-test-123')
  expect(request!.body.model).toBe('claude-test-1')
  expect(request!.body.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'Summarise yesterday’s sign-ups.' }] },
  ])
})

it('with no key configured, fails the run with a message saying how to configure one, calling nobody', async () => {
  configure({ ANTHROPIC_API_KEY: undefined })
  const { run, transcript } = await runOnce()
  expect(run.status).toBe('error')
  expect(run.error).toMatch(/^No Anthropic API key for this run: the job's creator has no key of their own/)
  expect(run.error).toMatch(/Settings → Models, or set ANTHROPIC_API_KEY in the server's \.env/)
  expect(transcript.map((m) => m.role)).toEqual(['user'])
  expect(fake.requests).toHaveLength(0)
})

it('a provider error fails the run with the provider’s message', async () => {
  configure({ ANTHROPIC_API_KEY: 'sk-wrong' })
  const { run } = await runOnce()
  expect(run.status).toBe('error')
  expect(run.error).toMatch(/^The model provider rejected the API key \(401\)/)
})

it('past its timeout the run is timed_out and the model request is aborted', async () => {
  fake.reply({ hang: true })
  const { run } = await runOnce({ timeoutMinutes: 1 }, async (clock) => {
    await expect.poll(() => fake.requests.length, POLL).toBeGreaterThan(0)
    await clock.advance(60_000)
  })
  expect(run.status).toBe('timed_out')
  await expect.poll(() => fake.requests[0]!.aborted, POLL).toBe(true)
})

it('the fake speaks the streaming protocol and tool_use blocks (for the agent)', async () => {
  const model = createAnthropic({ apiKey: 'sk-test-123', baseURL: fake.baseURL })('claude-test-1')
  fake.reply({ text: 'Streaming works, in pieces.', usage: { input_tokens: 5, output_tokens: 6 } })
  const stream = streamText({ model, prompt: 'hi', maxRetries: 0 })
  let text = ''
  for await (const piece of stream.textStream) text += piece
  expect(text).toBe('Streaming works, in pieces.')
  expect((await stream.usage).outputTokens).toBe(6)
  expect(fake.requests.at(-1)!.body.stream).toBe(true)

  const listFiles = tool({
    description: 'List files',
    inputSchema: z.object({ prefix: z.string() }),
  })
  for (const stream of [false, true]) {
    fake.reply({
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', name: 'list_files', input: { prefix: 'jobs/' } },
      ],
    })
    const calls = stream
      ? await streamText({ model, prompt: 'files?', tools: { list_files: listFiles }, maxRetries: 0 })
          .toolCalls
      : (await generateText({ model, prompt: 'files?', tools: { list_files: listFiles }, maxRetries: 0 }))
          .toolCalls
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([['list_files', { prefix: 'jobs/' }]])
  }
})

/** Takes the jobs table away for the length of `work`: a real database failure, not a mock. */
async function withoutJobsTable<T>(work: () => Promise<T>): Promise<T> {
  await db().execute(sql`alter table jobs rename to jobs_away`)
  try {
    return await work()
  } finally {
    await db().execute(sql`alter table jobs_away rename to jobs`)
  }
}

it('a job the run-as user can no longer see fails the run as "no longer visible"', async () => {
  const other = await createOwner(db(), 'Olga Other')
  const { run } = await runOnce({}, undefined, async (execute, jobId) => {
    await db().update(jobs).set({ createdBy: other.userId }).where(eq(jobs.id, jobId))
    return execute()
  })
  expect(run).toMatchObject({
    status: 'error',
    error: 'The job is no longer visible to the person it runs as.',
  })
})

it('a database failure while reading the job surfaces as itself, not as "no longer visible"', async () => {
  const { run } = await runOnce({}, undefined, (execute) => withoutJobsTable(execute))
  expect(run.status).toBe('error')
  expect(run.error).not.toMatch(/no longer visible/)
  expect(run.error).toMatch(/jobs/)
})

it('reading a run: a hidden job is a 404, a database failure is not turned into one', async () => {
  fake.reply({ text: 'Done.' })
  const { run } = await runOnce()
  expect((await getRunWithTranscript(owner.caller, run.id)).run.id).toBe(run.id)
  const stranger = await createOwner(db(), 'Stan Stranger')
  await expect(getRunWithTranscript(stranger.caller, run.id)).rejects.toMatchObject({ status: 404 })
  const failure = await withoutJobsTable(() =>
    getRunWithTranscript(owner.caller, run.id).catch((e: unknown) => e),
  )
  expect(failure).not.toBeInstanceOf(HttpError)
  expect(String((failure as Error).message)).toMatch(/jobs/)
})
