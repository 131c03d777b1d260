/**
 * The calendar: past runs and upcoming fires of every job the caller sees, day by day in the
 * caller's zone. Upcoming fires come from `nextRuns` (the scheduler's own slot math), at most
 * {@link MAX_FIRES_PER_JOB} per job and window, computed once per distinct (schedule, zone);
 * past runs come from the run history in one indexed query. Days whose UTC offset changes are
 * marked, because a fire there may not be where the wall clock suggests.
 */
import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm'
import { z } from 'zod'
import type { Caller } from '../auth/caller.ts'
import { instantOfWallTime, isValidTimezone, nextRuns, wallClock } from '../cron/cron.ts'
import { getDb, type Db } from '../db/client.ts'
import { jobRuns, jobs } from '../db/schema/index.ts'
import { jobsVisibleTo } from '../access/visibility.ts'
import { listJobBriefs, type JobView } from '../jobs/service.ts'
import { badRequest } from '../lib/errors.ts'
import { unstorableInstant } from '../lib/instant.ts'
import { BoundedCache } from '../lib/lru.ts'
import { queryInteger } from '../lib/query-integer.ts'
import { parseInput } from '../lib/validate.ts'
import type { RunStatus } from '../runs/schema.ts'
import { letTheLoopGo } from '../lib/loop-turn.ts'

const DAY = 86_400_000
/** Upcoming fires listed per job and window: a minutely job would otherwise fill a month with 43,200. */
export const MAX_FIRES_PER_JOB = 100
/**
 * Entries listed per day; the rest are counted (`more`). 200 hourly jobs put 4,800 fires in a day:
 * a month of them rendered as a page held the server's loop for seconds, and nobody reads them.
 */
export const MAX_ENTRIES_PER_DAY = 50
/** Past runs listed per window (newest dropped first past it, and the answer says so). */
export const MAX_RUNS = 5_000

// Date.parse rolls 2026-02-30 over to 2 March: a real date reads back the same.
const isRealDate = (d: string) => {
  const t = new Date(`${d}T00:00:00Z`)
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(d)
}

export const CalendarQuery = z.object({
  start: z
    .string({ error: 'must be a date like 2026-03-29' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date like 2026-03-29' })
    .refine(isRealDate, { error: 'is not a real date' })
    .optional()
    .describe("First day shown, in the caller's zone (default today)"),
  days: queryInteger({ min: 7, max: 30, message: 'must be 7 or 30' })
    .refine((n) => n === 7 || n === 30, { error: 'must be 7 or 30' })
    .default(7),
  view: z.enum(['day', 'week'], { error: 'must be day or week' }).default('week'),
  scope: z.enum(['all', 'personal', 'shared'], { error: 'must be all, personal or shared' }).default('all'),
  job: z.string().max(100).optional().describe('Only this job (its id)'),
})
export type CalendarQuery = z.infer<typeof CalendarQuery>

export type CalendarEntry =
  | { kind: 'run'; at: string; jobId: string; runId: string; status: RunStatus }
  | { kind: 'fire'; at: string; jobId: string }

export type CalendarDay = {
  /** The local date, YYYY-MM-DD. */
  date: string
  /** Set when the zone's UTC offset changes during this day. */
  dst: { from: string; to: string } | null
  /** The day's first {@link MAX_ENTRIES_PER_DAY} entries, in time order. */
  entries: CalendarEntry[]
  /** Entries of the day past those listed. */
  more: number
}

export type Calendar = {
  query: CalendarQuery & { start: string }
  zone: string
  now: string
  /** Today's local date in the zone. */
  today: string
  jobs: { id: string; name: string; scope: 'personal' | 'shared'; description: string }[]
  days: CalendarDay[]
  /** Jobs with more upcoming fires in the window than {@link MAX_FIRES_PER_JOB}. */
  capped: string[]
  /** True when the window held more than {@link MAX_RUNS} past runs. */
  runsCapped: boolean
}

/** The local date of `instant` in `zone`, YYYY-MM-DD. */
export const localDate = (zone: string, instant: number) =>
  new Date(wallClock(zone, instant)).toISOString().slice(0, 10)

/** The instant a local day starts (its first minute; after a midnight gap, when the gap ends). */
const dayStart = (zone: string, date: string) => instantOfWallTime(zone, Date.parse(`${date}T00:00:00Z`))
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)

function offsetText(zone: string, instant: number): string {
  const minutes = Math.round((wallClock(zone, instant) - Math.floor(instant / 1000) * 1000) / 60_000)
  const sign = minutes < 0 ? '−' : '+'
  const abs = Math.abs(minutes)
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/**
 * Milliseconds of `nextRuns` work between two turns of the event loop (decision 0513). A call is
 * about 0.3 ms on a quiet machine (decision 0414), but the first one in a zone-year reads the zone's
 * offsets for that year: counting calls let 16 such calls take one turn.
 */
const TURN_MS = 5

/**
 * Upcoming fires of `jobs` in [from, to), at most {@link MAX_FIRES_PER_JOB} each. Jobs that cannot
 * fire (paused, suspended, no next run) have none. Pure apart from the clock passed in; the event
 * loop is let go every {@link TURN_MS} of work (200 hourly jobs over a month are 20,000 fires:
 * seconds of work on a busy machine, and any `start` a member picks misses the memo), and no fire
 * past the window is computed.
 */
export async function upcomingFires(
  list: Pick<JobView, 'id' | 'schedule' | 'timezone' | 'enabled' | 'suspendedReason' | 'nextRun'>[],
  window: { from: number; to: number; now: number },
): Promise<{ fires: { jobId: string; at: number }[]; capped: Set<string> }> {
  const after = Math.max(window.from - 1, window.now)
  // Fires are computed from the start of the hour and kept (memo below), so page loads within the
  // hour reuse them; the ones already past are dropped here.
  const hour = Math.floor(after / HOUR) * HOUR
  const fires: { jobId: string; at: number }[] = []
  const capped = new Set<string>()
  const turn = loopTurns()
  for (const job of list) {
    if (!job.enabled || job.suspendedReason || !job.nextRun) continue
    const key = `${job.schedule}\u0000${job.timezone}\u0000${hour}\u0000${window.to}`
    let found = memo.get(key)
    if (!found) memo.set(key, (found = await firesOf(job.schedule, job.timezone, hour, window.to, turn)))
    for (const at of found.runs) if (at > after) fires.push({ jobId: job.id, at })
    if (found.capped) capped.add(job.id)
  }
  return { fires, capped }
}

const HOUR = 3_600_000
// Up to 100 numbers an entry: 5,000 entries stay under 4 MB. Keys carry the hour, so nothing is stale.
const memo = new BoundedCache<string, { runs: number[]; capped: boolean }>(5_000, HOUR)

async function firesOf(
  schedule: string,
  timezone: string,
  after: number,
  to: number,
  turn: () => Promise<void>,
) {
  const runs: number[] = []
  const until = new Date(to)
  let from = new Date(after)
  while (runs.length < MAX_FIRES_PER_JOB) {
    await turn()
    const batch = nextRuns(schedule, { after: from, until, timezone, count: 25 })
    for (const run of batch) {
      runs.push(run.getTime())
      if (runs.length === MAX_FIRES_PER_JOB) break
    }
    if (batch.length < 25) return { runs, capped: false }
    from = batch.at(-1)!
  }
  const more = nextRuns(schedule, { after: new Date(runs.at(-1)!), until, timezone, count: 1 })
  return { runs, capped: more.length > 0 }
}

/**
 * A function to await before each `nextRuns` call: once {@link TURN_MS} have passed since the
 * last turn, it lets the event loop go (other requests are answered) before the work goes on.
 */
function loopTurns(): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < TURN_MS) return
    await letTheLoopGo()
    since = performance.now()
  }
}

/** Fires asked of `nextRuns` at a time per job by {@link earliestFires}. */
const CURSOR_BATCH = 4

/**
 * The earliest `max` fires of `jobs` after `now` and before `to`, in time order, and whether the
 * window held more. One cursor per job, asked for a few fires at a time, so the work is about `max`
 * fires plus a few per job whatever the schedules (listing every job's first 100 fires, as
 * {@link upcomingFires} does, took 2 s for 200 hourly jobs on a busy machine), none past `to`, and
 * the event loop is let go every {@link TURN_MS} of work.
 */
export async function earliestFires(
  list: Pick<JobView, 'id' | 'schedule' | 'timezone' | 'enabled' | 'suspendedReason' | 'nextRun'>[],
  window: { to: number; now: number },
  max: number,
): Promise<{ fires: { jobId: string; at: number }[]; more: boolean }> {
  const cursors = list
    .filter((job) => job.enabled && !job.suspendedReason && job.nextRun)
    .map((job) => ({ job, queue: [] as number[], after: new Date(window.now), done: false }))
  const turn = loopTurns()
  const until = new Date(window.to)
  const fires: { jobId: string; at: number }[] = []
  for (;;) {
    for (const cursor of cursors) {
      if (cursor.queue.length > 0 || cursor.done) continue
      await turn()
      const { schedule, timezone } = cursor.job
      const batch = nextRuns(schedule, { after: cursor.after, until, timezone, count: CURSOR_BATCH })
      cursor.queue = batch.map((d) => d.getTime())
      cursor.done = cursor.queue.length < CURSOR_BATCH
      cursor.after = batch.at(-1) ?? cursor.after
    }
    let next: (typeof cursors)[number] | undefined
    for (const cursor of cursors) {
      const at = cursor.queue[0]
      if (at !== undefined && (next === undefined || at < next.queue[0]!)) next = cursor
    }
    if (!next) return { fires, more: false }
    if (fires.length === max) return { fires, more: true }
    fires.push({ jobId: next.job.id, at: next.queue.shift()! })
  }
}

async function pastRuns(caller: Caller, jobIds: string[] | null, from: Date, to: Date, db: Db) {
  if (to <= from || (jobIds && jobIds.length === 0)) return []
  const where = [jobsVisibleTo(caller), gte(jobRuns.scheduledFor, from), lt(jobRuns.scheduledFor, to)]
  if (jobIds) where.push(inArray(jobRuns.jobId, jobIds))
  return db
    .select({ id: jobRuns.id, jobId: jobRuns.jobId, at: jobRuns.scheduledFor, status: jobRuns.status })
    .from(jobRuns)
    .innerJoin(jobs, eq(jobs.id, jobRuns.jobId))
    .where(and(...where))
    .orderBy(asc(jobRuns.scheduledFor))
    .limit(MAX_RUNS + 1)
}

/** The calendar for `caller` (see the module comment); `input` is a {@link CalendarQuery}. */
export async function loadCalendar(
  caller: Caller,
  input: unknown,
  now: Date = new Date(),
  db: Db = getDb(),
): Promise<Calendar> {
  const query = parseInput(CalendarQuery, input)
  const zone = caller.timezone && isValidTimezone(caller.timezone) ? caller.timezone : 'UTC'
  const start = query.start ?? localDate(zone, now.getTime())
  const dates = Array.from({ length: query.days + 1 }, (_, i) => addDays(start, i))
  const bounds = dates.map((d) => dayStart(zone, d))
  const from = bounds[0]!
  const to = bounds.at(-1)!
  // The window goes into the past runs' query; checked once the caller's zone has moved the days.
  if (unstorableInstant(new Date(from)) || unstorableInstant(new Date(to)))
    throw badRequest('start: the calendar shows days from year 0001 to 9999 only', 'start')

  const all = await listJobBriefs(caller, { scope: query.scope })
  const shown = query.job ? all.filter((j) => j.id === query.job) : all
  const scoped = query.scope === 'all' && !query.job ? null : shown.map((j) => j.id)
  const runs = await pastRuns(caller, scoped, new Date(from), new Date(Math.min(to, now.getTime() + 1)), db)
  const { fires, capped } = await upcomingFires(shown, { from, to, now: now.getTime() })

  const entries: (CalendarEntry & { t: number })[] = [
    ...runs.slice(0, MAX_RUNS).map((r) => ({
      kind: 'run' as const,
      t: r.at.getTime(),
      at: r.at.toISOString(),
      jobId: r.jobId,
      runId: r.id,
      status: r.status,
    })),
    ...fires.map((f) => ({
      kind: 'fire' as const,
      t: f.at,
      at: new Date(f.at).toISOString(),
      jobId: f.jobId,
    })),
  ].sort((a, b) => a.t - b.t)

  const days: CalendarDay[] = dates.slice(0, -1).map((date, i) => {
    const [begin, end] = [bounds[i]!, bounds[i + 1]!]
    const before = offsetText(zone, begin)
    const after = offsetText(zone, end - 1)
    return { date, dst: before === after ? null : { from: before, to: after }, entries: [], more: 0 }
  })
  let day = 0
  for (const { t, ...entry } of entries) {
    while (day < days.length - 1 && t >= bounds[day + 1]!) day++
    const into = days[day]!
    if (into.entries.length < MAX_ENTRIES_PER_DAY) into.entries.push(entry)
    else into.more++
  }
  return {
    query: { ...query, start },
    zone,
    now: now.toISOString(),
    today: localDate(zone, now.getTime()),
    jobs: all.map((j) => ({ id: j.id, name: j.name, scope: j.scope, description: j.description })),
    days,
    capped: [...capped],
    runsCapped: runs.length > MAX_RUNS,
  }
}
