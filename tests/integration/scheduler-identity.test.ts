/**
 * A run takes its instructions and its identity from the job together, at the moment it starts
 * (invariant 4). The attack: a member's shared job has a run waiting (a retry in its backoff, or a
 * slot queued behind a running one); an admin edits the instructions meanwhile and so becomes the
 * creator. The waiting run must not then execute the admin's prompt as the member (with the
 * member's key, workspace and files); it runs the current prompt as its current author, and the
 * transcript belongs to that person.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Caller } from '#server/auth/caller.ts'
import { agentThreads, member, user } from '#server/db/schema/index.ts'
import type { RunContext, RunExecutor } from '#server/runs/executor.ts'
import { changeJobFrom } from '#server/jobs/writes.ts'
import { newId } from '#server/lib/ids.ts'
import { createSchedulerCore } from '#server/scheduler/core.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { gated, ok } from '#tests/support/fake-executor.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from '#tests/support/scheduler-db.ts'
import { createOwner, insertJob, resetJobs, runsOf, type Owner } from '#tests/support/scheduler-fixtures.ts'

let database: SchedulerTestDatabase
let owner: Owner
let memberId: string
let admin: Caller
beforeAll(async () => {
  database = await createSchedulerDatabase()
  owner = await createOwner(database.handle.db, 'Olga Owner')
  memberId = await addPerson('Mia Member', 'member')
  const adminId = await addPerson('Adam Admin', 'admin')
  admin = {
    ...owner.caller,
    userId: adminId,
    email: `${adminId}@example.com`,
    name: 'Adam Admin',
    role: 'admin',
  }
})
afterAll(() => database?.drop())
beforeEach(() => resetJobs(database.handle.db))
const db = () => database.handle.db
const DAY = 86_400_000
const MEMBER_PROMPT = 'Summarise my private notes in notes/private.md.'
const ADMIN_PROMPT = 'Print every file in the workspace, including notes/private.md.'

async function addPerson(name: string, role: 'admin' | 'member'): Promise<string> {
  const id = newId('usr')
  await db()
    .insert(user)
    .values({ id, name, email: `${id}@example.com` })
  await db()
    .insert(member)
    .values({ id: newId('mem'), organizationId: owner.orgId, userId: id, role })
  return id
}

function setup(start: string, executor: RunExecutor) {
  const clock = new ManualClock(start)
  const core = createSchedulerCore({ db: db(), instance: 'test-a', executor, clock, leaseMs: DAY })
  return { clock, core }
}

/** What a started run actually used: prompt, identity, and the owner of its transcript. */
async function used(ctx: RunContext) {
  const [thread] = await db().select().from(agentThreads).where(eq(agentThreads.id, ctx.threadId))
  return { instructions: ctx.job.instructions, runAs: ctx.runAsUserId, transcriptOwner: thread?.userId }
}

it('a retry after the instructions changed in its backoff runs the new prompt as its author, never as the member', async () => {
  const seen: RunContext[] = []
  const failOnce: RunExecutor = async (ctx) => {
    seen.push(ctx)
    if (seen.length === 1) throw new Error('the model was overloaded')
    return ok()
  }
  const { clock, core } = setup('2026-07-01T07:00:00.005Z', failOnce)
  const id = await insertJob(
    db(),
    { ...owner, userId: memberId },
    { schedule: '0 7 * * *', scope: 'shared', retries: 1, instructions: MEMBER_PROMPT },
    new Date('2026-07-01T06:00:00Z'),
  )
  await core.tick()
  await core.idle()
  expect((await runsOf(db(), id)).map((r) => [r.attempt, r.status])).toEqual([
    [1, 'error'],
    [2, 'queued'],
  ])

  // During the 30 s backoff an admin rewrites the prompt (and so becomes the creator).
  await changeJobFrom(admin, id, { instructions: ADMIN_PROMPT })
  await clock.advance(30_000)
  await core.tick()
  await core.idle()

  expect(seen).toHaveLength(2)
  expect(await used(seen[1]!)).toEqual({
    instructions: ADMIN_PROMPT,
    runAs: admin.userId,
    transcriptOwner: admin.userId,
  })
  const retry = (await runsOf(db(), id))[1]!
  expect(retry).toMatchObject({ status: 'success', runAsUserId: admin.userId })
})

it('overlap: queue — a slot queued before the edit runs the new prompt as its author, never as the member', async () => {
  const gate = gated()
  const { clock, core } = setup('2026-07-01T08:00:00.005Z', gate.executor)
  const id = await insertJob(
    db(),
    { ...owner, userId: memberId },
    { schedule: '* * * * *', scope: 'shared', overlap: 'queue', instructions: MEMBER_PROMPT },
    new Date('2026-07-01T07:59:30Z'),
  )
  await core.tick()
  await gate.untilStarted(1)
  await clock.advance(60_000)
  await core.tick()
  expect((await runsOf(db(), id)).map((r) => r.status)).toEqual(['running', 'queued'])
  expect(await used(gate.started[0]!)).toEqual({
    instructions: MEMBER_PROMPT,
    runAs: memberId,
    transcriptOwner: memberId,
  })

  await changeJobFrom(admin, id, { instructions: ADMIN_PROMPT })
  gate.release()
  await core.idle()
  await core.tick()
  await gate.untilStarted(2)
  expect(await used(gate.started[1]!)).toEqual({
    instructions: ADMIN_PROMPT,
    runAs: admin.userId,
    transcriptOwner: admin.userId,
  })
  gate.release()
  await core.idle()
  const runs = await runsOf(db(), id)
  expect(runs.map((r) => [r.status, r.runAsUserId])).toEqual([
    ['success', memberId],
    ['success', admin.userId],
  ])
})
