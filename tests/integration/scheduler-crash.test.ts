/**
 * Instances that die or are told to stop, as separate processes: kill -9 mid-run leaves an
 * `interrupted` run within the lease TTL, which another instance retries; SIGTERM stops claiming,
 * lets running work finish within the grace period and interrupts (for a retry) what does not.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { schedulerInstances } from '#server/db/schema/index.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { ok } from '#tests/support/fake-executor.ts'
import { POLL } from '#tests/support/poll.ts'
import {
  createOwner,
  insertJob,
  jobState,
  resetJobs,
  runsOf,
  type Owner,
} from '#tests/support/scheduler-fixtures.ts'
import { createSchedulerDatabase, type SchedulerTestDatabase } from '#tests/support/scheduler-db.ts'

const LEASE_MS = 1_500
const BACKOFF_MS = 200

let database: SchedulerTestDatabase
let owner: Owner
let child: ChildProcess | undefined
let survivor: RunningScheduler | undefined
beforeAll(async () => {
  database = await createSchedulerDatabase()
  owner = await createOwner(database.handle.db)
})
afterAll(() => database?.drop())
beforeEach(() => resetJobs(database.handle.db))
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL')
    await once(child, 'exit')
  }
  await survivor?.stop()
  survivor = undefined
})
const db = () => database.handle.db

async function spawnScheduler(instance: string, env: Record<string, string>): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'tests/support/scheduler-child.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      CHILD_DATABASE_URL: database.url,
      CHILD_INSTANCE: instance,
      CHILD_LEASE_MS: String(LEASE_MS),
      CHILD_BACKOFF_MS: String(BACKOFF_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  proc.stdout!.on('data', (chunk) => (out += chunk))
  await waitFor(() => out.includes('ready') || proc.exitCode !== null, 30_000)
  if (!out.includes('ready')) throw new Error(`scheduler child exited with ${proc.exitCode}`)
  return proc
}

/** A yearly job made due `inMs` from now by the database clock. */
async function dueJob(fixture: { retries?: number } = {}, inMs = 200): Promise<string> {
  const id = await insertJob(db(), owner, { schedule: '0 0 1 1 *', ...fixture })
  await db().execute(
    sql`update jobs set next_run_at = now() + ${inMs} * interval '1 millisecond' where id = ${id}`,
  )
  return id
}

const startSurvivor = () =>
  startScheduler({
    handle: database.handle,
    instanceId: 'survivor',
    executor: async () => ok('finished by the survivor'),
    leaseMs: LEASE_MS,
    backoffMs: [BACKOFF_MS],
  })

it('kill -9 mid-run: the run becomes interrupted within the lease TTL and another instance retries it', async () => {
  const id = await dueJob({ retries: 1 })
  child = await spawnScheduler('doomed', { CHILD_EXECUTOR: 'hang' })
  await waitFor(async () => (await runsOf(db(), id))[0]?.status === 'running')
  child.kill('SIGKILL')
  await once(child, 'exit')
  // The lease the dead instance last renewed (nobody renews it now) and the time of the kill,
  // both by the database clock; the reaper clears the lease when it settles the run.
  const [{ killed_at: killedAt, lease }] = (await db().execute(
    sql`select now() as killed_at, lease_expires_at as lease from job_runs where job_id = ${id}`,
  )) as unknown as [{ killed_at: string; lease: string }]
  survivor = await startSurvivor()
  await waitFor(async () => (await runsOf(db(), id)).some((r) => r.attempt === 2 && r.status === 'success'))

  const [first, retry] = await runsOf(db(), id)
  expect(first).toMatchObject({ attempt: 1, status: 'interrupted', instance: 'doomed' })
  expect(first!.reason).toMatch(/^the server running it \(doomed\) stopped responding; retrying/)
  // Never reaped while its lease was still valid, and that lease lapsed within one TTL of the
  // kill (it was renewed before it): an order of database times, not a stopwatch.
  expect(first!.finishedAt!.getTime()).toBeGreaterThanOrEqual(new Date(lease).getTime())
  expect(new Date(lease).getTime()).toBeLessThanOrEqual(new Date(killedAt).getTime() + LEASE_MS)
  expect(retry).toMatchObject({ attempt: 2, trigger: 'retry', status: 'success', instance: 'survivor' })
  expect(await jobState(db(), id)).toMatchObject({ lastStatus: 'success', consecutiveFailures: 0 })
})

it('SIGTERM: stops claiming, lets the running run finish within the grace period, then exits', async () => {
  const running = await dueJob()
  child = await spawnScheduler('graceful', { CHILD_EXECUTOR: 'sleep:1000', CHILD_GRACE_MS: '10000' })
  await waitFor(async () => (await runsOf(db(), running))[0]?.status === 'running')
  child.kill('SIGTERM')
  // Due while the child is shutting down: it must not claim it.
  const later = await dueJob({}, 100)
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  expect(await runsOf(db(), running)).toMatchObject([{ status: 'success', instance: 'graceful' }])
  expect(await runsOf(db(), later)).toEqual([])
  const [instance] = await db().select().from(schedulerInstances).where(eq(schedulerInstances.id, 'graceful'))
  expect(instance!.stoppedAt).not.toBeNull()

  survivor = await startSurvivor()
  await waitFor(async () => (await runsOf(db(), later))[0]?.status === 'success')
})

it('SIGTERM: a run still going after the grace period is interrupted, and another instance retries it', async () => {
  const id = await dueJob({ retries: 1 })
  child = await spawnScheduler('impatient', { CHILD_EXECUTOR: 'hang', CHILD_GRACE_MS: '300' })
  await waitFor(async () => (await runsOf(db(), id))[0]?.status === 'running')
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  const [first, queued] = await runsOf(db(), id)
  expect(first).toMatchObject({
    status: 'interrupted',
    instance: 'impatient',
    error: 'The server shut down before the run finished',
  })
  expect(first!.reason).toMatch(
    /^the server running it \(impatient\) shut down, and it did not finish in the 300 ms the server waits for running work; retrying/,
  )
  expect(queued).toMatchObject({ attempt: 2, status: 'queued', trigger: 'retry' })

  survivor = await startSurvivor()
  await waitFor(async () => (await runsOf(db(), id))[1]?.status === 'success')
})

/** Polls until `check` holds (a hang guard, not a deadline). */
const waitFor = (check: () => Promise<boolean> | boolean, timeout: number = POLL.timeout) =>
  expect.poll(check, { ...POLL, timeout }).toBe(true)
