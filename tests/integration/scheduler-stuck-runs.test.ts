/**
 * No run stays `running` because its transcript could not be stored. Model text with U+0000 or a
 * lone surrogate (which Postgres rejects in text and jsonb) is sanitised on its way to the
 * database; a transcript that still cannot be stored settles the run as `error` with the reason;
 * and lease renewal extends only the runs actually executing here, so a row nobody executes
 * lapses and is reaped. Real timers, the real shell and the fake model server.
 */
import { sql, type SQL } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { jobRuns } from '#server/db/schema/index.ts'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { resetEnvCache } from '#server/env.ts'
import type { RunExecutor } from '#server/runs/executor.ts'
import { newId } from '#server/lib/ids.ts'
import { readTranscript } from '#server/runs/threads.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { hang } from '#tests/support/fake-executor.ts'
import { eventually } from '#tests/support/poll.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from '#tests/support/scheduler-db.ts'
import { createOwner, insertJob, resetJobs, runsOf, type Owner } from '#tests/support/scheduler-fixtures.ts'

const KEY = 'sk-ant-stuck-runs-0001'
// Long enough for a loaded machine; before the fix such a run stayed `running` for as long as
// the instance had other runs to renew, and was at best reaped as `interrupted`, never `error`.
const LEASE_MS = 10_000

let database: SchedulerTestDatabase
let owner: Owner
let fake: FakeAnthropic
let scheduler: RunningScheduler | undefined
beforeAll(async () => {
  database = await createSchedulerDatabase()
  owner = await createOwner(database.handle.db)
  fake = await startFakeAnthropic({ apiKey: KEY })
  process.env.ANTHROPIC_API_KEY = KEY
  process.env.ANTHROPIC_BASE_URL = fake.baseURL
  resetEnvCache()
})
afterAll(async () => {
  await fake?.close()
  await database?.drop()
})
beforeEach(async () => {
  await scheduler?.stop()
  scheduler = undefined
  await resetJobs(database.handle.db)
})
const db = () => database.handle.db

const start = async (executor: RunExecutor = createAgentExecutor(), instanceId = `stuck-${newId('i')}`) => {
  scheduler = await startScheduler({
    handle: database.handle,
    instanceId,
    executor,
    leaseMs: LEASE_MS,
    graceMs: 0,
  })
  return scheduler
}

/** A job due now (the database clock) that fires once. */
const dueJob = (instructions: string) =>
  insertJob(db(), owner, { schedule: '0 0 1 1 *', instructions, nextRunAt: sql`now()` as never })

/**
 * Polls until the job's first run is final. A stuck run never is (the guard fails the test), and
 * one reaped when its lease lapsed is `interrupted`, which the tests tell from `success`/`error`.
 */
const settled = (jobId: string) =>
  eventually(
    `the first run of ${jobId} to settle`,
    async () => {
      const [run] = await runsOf(db(), jobId)
      return run && !['queued', 'running'].includes(run.status) ? run : undefined
    },
    2 * LEASE_MS,
  )

/** A job and a run of it left `running` that no scheduler executes (`row` says whose and until when). */
async function orphanRun(
  row: Omit<Partial<typeof jobRuns.$inferInsert>, 'leaseExpiresAt'> & { leaseExpiresAt: SQL },
) {
  const id = await insertJob(db(), owner, { schedule: '0 0 1 1 *' })
  const orphan = newId('run')
  await db()
    .insert(jobRuns)
    .values({
      id: orphan,
      jobId: id,
      orgId: owner.orgId,
      trigger: 'manual',
      scheduledFor: sql`now()`,
      status: 'running',
      runAsUserId: owner.userId,
      startedAt: sql`now()`,
      ...row,
    })
  return { id, orphan }
}

it('a model reply with U+0000 and a lone surrogate settles, its text stored sanitised', async () => {
  fake.replyWhen('nul-reply', { text: 'Total:\u0000 42 \ud83d sign-ups' })
  await start()
  const id = await dueJob('Count sign-ups (nul-reply).')
  const run = await settled(id)
  expect(run).toMatchObject({ status: 'success', error: null })
  const transcript = await readTranscript(run.threadId!, db())
  const text = transcript.at(-1)!.parts.find((p: any) => p.type === 'text') as { text: string }
  expect(text.text).toBe('Total:\ufffd 42 \ufffd sign-ups')
})

it('a transcript that cannot be stored settles the run as error, with the reason, not interrupted', async () => {
  const unstorable: RunExecutor = async () => ({
    // A value JSON cannot encode: storing the transcript throws whatever the text.
    transcript: [{ role: 'assistant', parts: [{ type: 'text', text: 'hi', extra: 1n } as never] }],
    usage: { inputTokens: 1, outputTokens: 1 },
  })
  await start(unstorable)
  const id = await dueJob('Say hi.')
  const run = await settled(id)
  expect(run.status).toBe('error')
  expect(run.error).toMatch(/transcript could not be stored/i)
})

it('renews leases only for runs executing here: a running row of this instance that nobody executes lapses and is reaped', async () => {
  const instanceId = `stuck-${newId('i')}`
  // Left `running` under this instance's name (as a run whose settle failed used to be).
  const { id, orphan } = await orphanRun({
    instance: instanceId,
    leaseExpiresAt: sql`now() + interval '1 second'`,
  })
  // Meanwhile a real run executes here, so the heartbeat has leases to renew.
  const busy = await dueJob('Take your time.')
  await start(hang, instanceId)
  const run = await settled(id)
  expect(run).toMatchObject({ id: orphan, status: 'interrupted' })
  expect((await runsOf(db(), busy))[0]).toMatchObject({ status: 'running', instance: instanceId })
})

it('a run reaped without an account keeps the spending its budget checks recorded', async () => {
  // A run on the organisation's key writes what it has spent at every budget check (decision
  // 0444). Its instance died: the reaper's settle had no usage and emptied the cost, so the money
  // it spent left the month's sum that the budget reads.
  const { id, orphan } = await orphanRun({
    instance: `gone-${newId('i')}`,
    leaseExpiresAt: sql`now() - interval '1 second'`,
    keySource: 'org',
    costUsd: '0.9',
  })
  await start(hang)
  const run = await settled(id)
  expect(run).toMatchObject({ id: orphan, status: 'interrupted' })
  expect(Number(run.costUsd)).toBe(0.9)
})
