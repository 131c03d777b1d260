/**
 * The Run: one attempt at one slot of a job, as the API, the pages and the job file see it.
 * Rows live in `job_runs`; this file maps them to the public shape and names the statuses.
 */
import { z } from 'zod'
import type { jobRuns } from '../db/schema/app.ts'
import { unstorableInstant } from '../lib/instant.ts'
import { queryInteger } from '../lib/query-integer.ts'

export type RunRow = typeof jobRuns.$inferSelect
export type RunTrigger = RunRow['trigger']
export type RunStatus = RunRow['status']

/** Final statuses that count as a failed run (towards retries and the auto-pause). */
export const FAILED_STATUSES = ['error', 'timed_out', 'interrupted'] as const
export type FailedStatus = (typeof FAILED_STATUSES)[number]

/** The public Run shape: dates are ISO strings, `usage` is null-filled for runs that never ran. */
export type Run = {
  id: string
  jobId: string
  trigger: RunTrigger
  scheduledFor: string
  status: RunStatus
  reason: string | null
  attempt: number
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
  error: string | null
  /**
   * Tokens the run spent, and its estimated cost in USD (null when the model's price is unknown).
   * While a run on the organisation's key goes, its cost so far (decision 0444).
   */
  usage: {
    inputTokens: number | null
    outputTokens: number | null
    costUsd: number | null
    /** `provider:model`, null when the run never reached a model. */
    model: string | null
  }
  instance: string | null
  /**
   * Commands the agent was refused in this run (denied by the policy, or network refused by the
   * sandbox): a run can succeed without doing what it was asked. Counted when the run ends.
   */
  deniedCommands: number
}

/** One message of a run's transcript (an `agent_messages` row; parts are AI SDK UI message parts). */
export type TranscriptMessage = {
  id: string
  role: 'system' | 'user' | 'assistant' | 'tool'
  parts: unknown[]
  createdAt: string
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** Maps a `job_runs` row to the public Run. */
export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    jobId: row.jobId,
    trigger: row.trigger,
    scheduledFor: row.scheduledFor.toISOString(),
    status: row.status,
    reason: row.reason,
    attempt: row.attempt,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    durationMs: row.startedAt && row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    error: row.error,
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      // numeric(12,6) comes back as a string; a few micro-dollars of float error do not matter here.
      costUsd: row.costUsd === null ? null : Number(row.costUsd),
      model: row.model,
    },
    instance: row.instance,
    deniedCommands: row.deniedCommands,
  }
}

/** `GET /jobs/:id/runs` query: newest first; `before` is the last run's id (or an ISO time) to page on. */
export const RunListQuery = z.object({
  limit: queryInteger({ min: 1, max: 200 })
    .default(50)
    .describe('How many runs to return, newest first (1–200, default 50)'),
  before: z
    .union(
      [
        z.string().regex(/^run_[a-z0-9]+$/),
        z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
      ],
      { error: 'must be a run id (from the previous page) or an ISO date-time' },
    )
    // The time goes into the query: one PostgreSQL cannot hold (year 0) would be a 500 there.
    .superRefine((value, ctx) => {
      const reason = typeof value === 'string' ? null : unstorableInstant(value)
      if (reason) ctx.addIssue({ code: 'custom', message: reason })
    })
    .optional()
    .describe('Only runs older than this run id, or scheduled before this ISO time'),
})
export type RunListQuery = z.infer<typeof RunListQuery>
