/**
 * Starting queued runs (retries past their backoff, runs queued behind a running one, run-now
 * requests, slots that found every worker busy). The job row lock is the per-job mutex: whoever
 * holds it may move that job's runs to running, so two instances never run one job at once.
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { ONE_SHOT_DONE } from '../runs/policy.ts'
import { recordRunStarts, selectRunJob, toRunJob, type RunJobRow, type StartedRun } from '../runs/run-job.ts'
import type { RunRow } from '../runs/schema.ts'
import { fromRawRun, markRunsRunning, markRunsSkipped } from '../runs/store.ts'
import { inList, inTransaction, queryRows } from '../db/sql.ts'
import { withRunThreads } from '../runs/threads.ts'
import { fullOrgs, notAmongOrgs, takeTurns, turnOrder, type OrgShare } from './org-share.ts'

type JobRow = RunJobRow & { enabled: boolean; suspended_reason: string | null }

/**
 * Ready queued runs of jobs with nothing running, taking turns between organisations (org-share.ts):
 * the fewest runs going first, then oldest first. Organisations at their cap are left out. A new
 * snapshot each call; it reads every ready queued run outside those organisations (at most a few
 * per job), only when this instance has a free slot.
 */
const readyQueued = (now: SQL, jobFilter: SQL, share: OrgShare, limit: number) => sql`
  select q.* from (
    select q.*, row_number() over (
        partition by q.org_id order by coalesce(q.not_before, q.scheduled_for), q.attempt
      ) as org_turn
    from job_runs q
    where q.status = 'queued' and coalesce(q.not_before, q.scheduled_for) <= ${now} and ${jobFilter}
      and ${notAmongOrgs(fullOrgs(share))}
      and not exists (select 1 from job_runs r where r.job_id = q.job_id and r.status = 'running')
  ) q
  order by ${turnOrder(share)}, coalesce(q.not_before, q.scheduled_for), q.attempt
  limit ${limit}`

/** The first run of each job (a job runs one at a time; its other ready runs wait for the next pass). */
function firstPerJob<T extends { jobId: string }>(runs: T[]): T[] {
  const seen = new Set<string>()
  return runs.filter((run) => !seen.has(run.jobId) && seen.add(run.jobId))
}

/** The runs to start, in turn order: one per job, none past its organisation's share, at most `capacity`. */
function choose(runs: RunRow[], share: OrgShare, capacity: number): RunRow[] {
  const turns = takeTurns(share)
  return firstPerJob(runs)
    .filter((run) => turns.take(run.orgId))
    .slice(0, capacity)
}

/**
 * Starts up to `capacity` ready queued runs on `instance`, taking turns between organisations
 * (`share`); queued runs of paused jobs become skipped.
 */
export async function startQueuedRuns(
  options: { now: SQL; instance: string; capacity: number; leaseMs: number; share: OrgShare },
  db: Db,
): Promise<StartedRun[]> {
  const { now, capacity, share } = options
  if (capacity <= 0) return []
  const candidates = choose(
    (await queryRows(db, readyQueued(now, sql`true`, share, capacity * 4))).map(fromRawRun),
    share,
    capacity,
  )
  if (candidates.length === 0) return []
  return inTransaction(db, async (tx) => {
    const jobs = await queryRows<JobRow>(
      tx,
      selectRunJob(
        sql`enabled, suspended_reason`,
        // Lock only as many jobs as we can start: instances draining one backlog together then
        // take different jobs from the same candidates instead of one locking them all.
        sql`where id in ${inList(candidates.map((c) => c.jobId))} limit ${capacity} for update skip locked`,
      ),
    )
    if (jobs.length === 0) return []
    // Re-read under the locks: another instance may have started one of these meanwhile.
    const locked = sql`q.job_id in ${inList(jobs.map((j) => j.id))}`
    const runs = firstPerJob(
      (await queryRows(tx, readyQueued(now, locked, share, jobs.length * 2))).map(fromRawRun),
    )
    const byId = new Map(jobs.map((j) => [j.id, j]))
    const paused = runs.filter((r) => !askedByPerson(r) && isPaused(byId.get(r.jobId)))
    await markRunsSkipped(
      paused.map((r) => r.id),
      { now, reason: 'the job was paused before this run could start' },
      tx,
    )
    const toStart = choose(
      runs.filter((r) => !paused.includes(r)),
      share,
      capacity,
    )
    // Identity and instructions both come from the job row read above, under its lock: a run
    // queued before an edit runs the current prompt as its current author, never the old author.
    const started = await markRunsRunning(
      toStart.map((r) => ({ id: r.id, runAsUserId: byId.get(r.jobId)!.created_by })),
      options,
      tx,
    )
    await recordRunStarts(
      started.map((r) => ({ id: r.jobId, started: true })),
      now,
      tx,
    )
    return withRunThreads(
      started.map((run: RunRow) => ({ run, job: toRunJob(byId.get(run.jobId)!) })),
      tx,
    )
  })
}

/**
 * A run a person asked for now starts on a paused job: Run now, and Retry, which makes a new first
 * attempt. The scheduler's own retries are later attempts of their slot, and skip with the job.
 */
const askedByPerson = (run: RunRow) =>
  run.trigger === 'manual' || (run.trigger === 'retry' && run.attempt === 1)

// A one-shot that used its slot is paused, but that slot's queued run and retries still start.
const isPaused = (job: JobRow | undefined) =>
  !job || !job.enabled || (job.suspended_reason !== null && !job.suspended_reason.startsWith(ONE_SHOT_DONE))
