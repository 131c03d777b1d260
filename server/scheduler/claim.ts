/**
 * Claiming due jobs: in ONE transaction, lock due jobs (FOR UPDATE SKIP LOCKED, through the
 * partial index jobs_due_idx), write one run row per slot under the unique (job, slot, attempt)
 * key, and advance next_run_at. Several instances can claim at once: each locks different rows,
 * and the unique key makes a second row for the same slot impossible (invariant 2).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { newId } from '../lib/ids.ts'
import {
  recordRunStarts,
  selectRunJob,
  toRunJob,
  type RunJob,
  type RunJobRow,
  type RunStart,
  type StartedRun,
} from '../runs/run-job.ts'
import { insertSlotRuns, listActiveRuns, type SlotRow } from '../runs/store.ts'
import { createRunThreads } from '../runs/threads.ts'
import { decideOverlap } from '../runs/overlap.ts'
import { memoizeNextRun } from '../runs/next-run-memo.ts'
import { planSlots, scheduleEndReason, type NextRunFn } from '../runs/policy.ts'
import { inTransaction, queryRows, toDate } from '../db/sql.ts'
import { takeTurns, type OrgShare } from './org-share.ts'

export type ClaimOptions = {
  now: SQL
  instance: string
  /** Jobs locked per transaction. */
  limit: number
  /** Runs this instance may start now; the rest are inserted as queued for any instance. */
  capacity: number
  /** Each organisation's share of those (org-share.ts): a slot past it is queued too. */
  share: OrgShare
  leaseMs: number
  next?: NextRunFn
}

type DueRow = RunJobRow & {
  schedule: string
  timezone: string
  catch_up: 'latest' | 'skip'
  overlap: 'skip' | 'queue'
  next_run_at: string | Date
  now: string | Date
}

/**
 * Due jobs, oldest slot first, locked for this transaction; rows another instance holds are skipped.
 * Reads only through the partial index jobs_due_idx (invariant 3). Exported for the benchmark.
 */
export const selectDueJobs = (now: SQL, limit: number) =>
  selectRunJob(
    sql`schedule, timezone, catch_up, overlap, next_run_at, ${now} as now`,
    sql`where enabled and suspended_reason is null and next_run_at <= ${now}
        order by next_run_at
        limit ${limit}
        for update skip locked`,
  )

/** Claims up to `limit` due jobs; returns how many were locked and the runs started here. */
export async function claimDueJobs(
  options: ClaimOptions,
  db: Db,
): Promise<{ claimed: number; started: StartedRun[] }> {
  const next = memoizeNextRun(options.next)
  return inTransaction(db, async (tx) => {
    const due = await queryRows<DueRow>(tx, selectDueJobs(options.now, options.limit))
    if (due.length === 0) return { claimed: 0, started: [] }
    const now = toDate(due[0]!.now)!
    const active = await listActiveRuns(
      due.map((j) => j.id),
      tx,
    )
    const activeByJob = new Map<string, { status: string }[]>()
    for (const run of active) activeByJob.set(run.jobId, [...(activeByJob.get(run.jobId) ?? []), run])
    let capacity = options.capacity
    const turns = takeTurns(options.share)
    const rows: SlotRow[] = []
    const moves: RunStart[] = []
    const jobs = new Map<string, RunJob>()
    for (const job of due) {
      jobs.set(job.id, toRunJob(job))
      const plan = planSlots(
        {
          schedule: job.schedule,
          timezone: job.timezone,
          catchUp: job.catch_up,
          nextRunAt: toDate(job.next_run_at)!,
          now,
        },
        next,
      )
      const base = { jobId: job.id, orgId: job.org_id, runAsUserId: job.created_by }
      for (const slot of plan.missed)
        rows.push({ ...base, id: newId('run'), trigger: 'schedule', status: 'missed', ...slot })
      let started = false
      if (plan.fire) {
        const { scheduledFor, trigger, reason } = plan.fire
        const decision = decideOverlap(job.overlap, activeByJob.get(job.id) ?? [])
        const row: SlotRow = { ...base, id: newId('run'), trigger, scheduledFor, reason, status: 'queued' }
        if (decision.status === 'skipped') Object.assign(row, { status: 'skipped', reason: decision.reason })
        else if (decision.status === 'queued')
          row.reason = [reason, decision.reason].filter(Boolean).join('; ')
        else if (capacity > 0 && turns.take(job.org_id)) {
          capacity--
          started = true
          Object.assign(row, { status: 'running', instance: options.instance, threadId: newId('thr') })
        }
        rows.push(row)
      }
      moves.push({
        id: job.id,
        nextRunAt: plan.nextRunAt ?? null,
        started,
        suspend: scheduleEndReason(job, plan),
      })
    }
    // The writes go out together (postgres.js pipelines a transaction's statements that are not
    // awaited one by one): a single round trip between the locks and the executors. Each started
    // run's thread (its prompt as the first message) is written here too, so it starts at once.
    const threads = rows
      .filter((r) => r.threadId)
      .map((r) => {
        const job = jobs.get(r.jobId)!
        const thread = { threadId: r.threadId!, runId: r.id, orgId: r.orgId, userId: r.runAsUserId }
        return { ...thread, title: job.name, instructions: job.instructions }
      })
    const [inserted] = await Promise.all([
      insertSlotRuns(rows, { now: options.now, leaseMs: options.leaseMs }, tx),
      recordRunStarts(moves, options.now, tx),
      createRunThreads(threads, tx),
    ])
    const started = inserted
      .filter((run) => run.status === 'running')
      .map((run) => ({ run, job: jobs.get(run.jobId)! }))
    return { claimed: due.length, started }
  })
}
