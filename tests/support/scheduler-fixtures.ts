/**
 * Rows for scheduler tests, written straight to the database: a person in an organisation and
 * jobs whose next_run_at is placed relative to a manual clock (the jobs service would use the
 * real database clock). Tests that exercise the service itself go through it instead.
 */
import { eq, sql } from 'drizzle-orm'
import type { Caller } from '#server/auth/caller.ts'
import type { Db } from '#server/db/client.ts'
import { jobRuns, jobs, member, organization, user } from '#server/db/schema/index.ts'
import { nextRun } from '#server/cron/cron.ts'
import { newId } from '#server/lib/ids.ts'

export type Owner = { userId: string; orgId: string; caller: Caller }

export async function createOwner(db: Db, name = 'Sam Scheduler'): Promise<Owner> {
  const userId = newId('usr')
  const orgId = newId('org')
  const email = `${userId}@example.com`
  await db.insert(user).values({ id: userId, name, email })
  await db.insert(organization).values({ id: orgId, name: `${name}'s workspace`, slug: orgId })
  await db.insert(member).values({ id: newId('mem'), organizationId: orgId, userId, role: 'owner' })
  const caller: Caller = {
    userId,
    email,
    name,
    timezone: null,
    orgId,
    orgName: `${name}'s workspace`,
    role: 'owner',
  }
  return { userId, orgId, caller }
}

export type JobFixture = Partial<typeof jobs.$inferInsert> & { schedule: string }

/** Inserts a job; `nextRunAt` defaults to the schedule's first slot after `after` (or now). */
export async function insertJob(
  db: Db,
  owner: Owner,
  fixture: JobFixture,
  after = new Date(),
): Promise<string> {
  const id = fixture.id ?? newId('job')
  const timezone = fixture.timezone ?? 'UTC'
  await db.insert(jobs).values({
    name: id.replace(/_/g, '-'),
    scope: 'personal',
    instructions: 'Say hello.',
    nextRunAt: nextRun(fixture.schedule, { after, timezone }),
    ...fixture,
    id,
    timezone,
    orgId: owner.orgId,
    createdBy: owner.userId,
  })
  return id
}

export async function jobState(db: Db, id: string) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  if (!row) throw new Error(`no job ${id}`)
  return row
}

/** A job's runs, oldest slot first, then by attempt. */
export async function runsOf(db: Db, jobId: string) {
  return db
    .select()
    .from(jobRuns)
    .where(eq(jobRuns.jobId, jobId))
    .orderBy(jobRuns.scheduledFor, jobRuns.attempt, jobRuns.createdAt)
}

/** Every run in the database, oldest slot first. */
export async function allRuns(db: Db) {
  return db.select().from(jobRuns).orderBy(jobRuns.jobId, jobRuns.scheduledFor, jobRuns.attempt)
}

export async function setJob(db: Db, id: string, set: Partial<typeof jobs.$inferInsert>) {
  await db.update(jobs).set(set).where(eq(jobs.id, id))
}

export const countRows = async (db: Db, table: 'job_runs' | 'agent_threads' | 'agent_messages') => {
  const result = (await db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown
  const rows = Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows
  return Number(rows[0].n)
}

/** Deletes every job (and, by cascade, run) so each test starts from an empty schedule. */
export async function resetJobs(db: Db) {
  await db.delete(jobs)
}
