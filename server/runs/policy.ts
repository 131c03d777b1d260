/**
 * The scheduler's pure rules: which slots of a due job fire and which are recorded as missed,
 * retry backoff, and when a failing job pauses itself. No I/O, no clock: the caller passes
 * "now" (the database clock) and gets a plan back.
 */
import { describeSchedule, nextRun } from '../cron/cron.ts'
import { formatDuration } from './format.ts'

/** Backoff before retry n (the n-th entry; later retries reuse the last): docs/architecture.md, "The scheduler". */
export const RETRY_BACKOFF_MS = [30_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000] as const
/** A job pauses itself after this many failed runs in a row. */
export const AUTO_PAUSE_AFTER = 10
/**
 * A slot claimed more than this late is a catch-up (and, with `catchUp: skip`, missed). Normal
 * lateness is milliseconds; a minute leaves room for a burst of thousands of due jobs.
 */
export const LATE_GRACE_MS = 60_000
/** At most this many `missed` rows are written per claim; older missed slots are summarised in a reason. */
export const MAX_MISSED_ROWS = 100

export type NextRunFn = (schedule: string, options: { after: Date; timezone: string }) => Date | null

export type SlotPlanInput = {
  schedule: string
  timezone: string
  catchUp: 'latest' | 'skip'
  /** The job's stored next slot: the first one not yet accounted for. */
  nextRunAt: Date
  /** The database clock. */
  now: Date
}

export type PlannedSlot = { scheduledFor: Date; reason: string | null }

export type SlotPlan = {
  /** The slot to run now, if any. */
  fire: (PlannedSlot & { trigger: 'schedule' | 'catch-up' }) | null
  /** Slots recorded as `missed` (oldest first, at most {@link MAX_MISSED_ROWS}). */
  missed: PlannedSlot[]
  /** Where the job's `next_run_at` moves: the first slot after now (null: the schedule has no more). */
  nextRunAt: Date | null
}

/** Decides what a due job does now (catch-up policy); see {@link SlotPlan}. */
export function planSlots(input: SlotPlanInput, next: NextRunFn = nextRun): SlotPlan {
  const { schedule, timezone, catchUp, now } = input
  const { slots, truncated } = collectDueSlots(input, next)
  const nextRunAt = next(schedule, { after: now, timezone })
  const latest = slots.at(-1)
  if (!latest) return { fire: null, missed: [], nextRunAt }

  const lateMs = now.getTime() - latest.getTime()
  const late = lateMs > LATE_GRACE_MS
  const runLatest = catchUp === 'latest' || !late
  const missedSlots = runLatest ? slots.slice(0, -1) : slots
  const why =
    catchUp === 'latest'
      ? 'no server was running the scheduler at that time; after such a gap the job runs only the latest missed time (catchUp: latest)'
      : 'no server was running the scheduler at that time; after such a gap the job runs none of the missed times (catchUp: skip)'
  const missed = missedSlots.slice(-MAX_MISSED_ROWS).map((scheduledFor) => ({ scheduledFor, reason: why }))
  if (truncated && missed[0]) {
    missed[0].reason = `${why}; earlier missed times since ${input.nextRunAt.toISOString()} are not listed`
  }
  const fire = runLatest
    ? {
        scheduledFor: latest,
        trigger: late ? ('catch-up' as const) : ('schedule' as const),
        reason: late
          ? `ran ${formatDuration(lateMs)} late, because no server was running the scheduler at its time (catchUp: latest)`
          : null,
      }
    : null
  return { fire, missed, nextRunAt }
}

/**
 * The slots in [nextRunAt, now], oldest first. After a long outage a dense schedule has a great
 * many; only the last MAX_MISSED_ROWS + 1 matter, so the walk starts from a window before now that
 * doubles until it holds enough slots (or reaches nextRunAt): the cost stays ~2 × MAX_MISSED_ROWS.
 */
function collectDueSlots(input: SlotPlanInput, next: NextRunFn): { slots: Date[]; truncated: boolean } {
  const { schedule, timezone, nextRunAt, now } = input
  const wanted = MAX_MISSED_ROWS + 1
  for (let windowMs = 60 * 60_000; ; windowMs *= 2) {
    const from = now.getTime() - windowMs
    if (from <= nextRunAt.getTime())
      return { slots: walk(nextRunAt, now, next, schedule, timezone), truncated: false }
    const first = next(schedule, { after: new Date(from - 1), timezone })
    const slots = first ? walk(first, now, next, schedule, timezone) : []
    if (slots.length >= wanted) return { slots: slots.slice(-wanted), truncated: true }
  }
}

function walk(first: Date, now: Date, next: NextRunFn, schedule: string, timezone: string): Date[] {
  const slots: Date[] = []
  for (let slot: Date | null = first; slot && slot <= now; slot = next(schedule, { after: slot, timezone })) {
    slots.push(slot)
  }
  return slots
}

/** How long a failed attempt waits before its retry. `attempt` is the one that failed (1-based). */
export function retryDelayMs(attempt: number, backoff: readonly number[] = RETRY_BACKOFF_MS): number {
  return backoff[Math.min(Math.max(attempt, 1), backoff.length) - 1] ?? 0
}

/** True when the failed attempt `attempt` may be retried under `retries`. */
export const canRetry = (attempt: number, retries: number) => attempt <= retries

/** Why a job paused itself after {@link AUTO_PAUSE_AFTER} failed runs in a row. */
export function autoPauseReason(lastError: string | null): string {
  const last = lastError ? ` (last: ${lastError.slice(0, 300)})` : ''
  return `Paused after ${AUTO_PAUSE_AFTER} failed runs in a row${last}. Fix the cause, then enable the job again.`
}

/** How {@link scheduleEndReason} starts: such a pause still lets the last slot's queued runs and retries start. */
export const ONE_SHOT_DONE = 'One-shot schedule done'

/**
 * Why a job whose schedule has no slot left (a one-shot `at` after its time) paused itself, or
 * undefined while it has one. The scheduler writes it with the claim that used the last slot.
 */
export function scheduleEndReason(
  job: { schedule: string; timezone: string },
  plan: Pick<SlotPlan, 'fire' | 'nextRunAt'>,
): string | undefined {
  if (plan.nextRunAt) return undefined
  const when = describeSchedule(job.schedule, { timezone: job.timezone })
  const what = plan.fire ? 'It ran' : 'Its time passed while no scheduler ran, so it did not run'
  return `${ONE_SHOT_DONE} (${when}). ${what}; set a new time to run it again.`
}
