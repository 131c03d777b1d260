/**
 * What runs spent: the organisation key's spend in the current month (the monthly budget) and the
 * tokens and estimated cost per job, per person and per day (the usage page). Sums over
 * `job_runs`, by the database clock; a run's cost is counted in the month and on the day it started.
 */
import { sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { queryRows } from '../db/sql.ts'
import { deletedSpendUsd } from './deleted-spend.ts'

/**
 * A run's spending as the budgets count it: what it has spent, and while it goes what it holds for
 * the model call it was admitted to make (decision 0480).
 */
export const spentAndHeld = sql.raw(
  `coalesce(cost_usd, 0) + case when status = 'running' then reserved_usd else 0 end`,
)

const monthStart = sql`date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`

/**
 * {@link sumOrgKeySpendThisMonth} as a scalar subquery, for a statement that reads more at once.
 * A deleted job's runs count too (decision 0520): the money was spent.
 */
export const orgKeySpendThisMonth = (orgId: string): SQL =>
  sql`((select coalesce(sum(${spentAndHeld}), 0) from job_runs
        where org_id = ${orgId} and key_source = 'org' and started_at >= ${monthStart})
      + ${deletedSpendUsd({ keySource: 'org', orgId, since: monthStart })})::float8`

/** USD the organisation's own model key spent on runs since the start of this calendar month (UTC). */
export async function sumOrgKeySpendThisMonth(orgId: string, db: Db = getDb()): Promise<number> {
  const [row] = await queryRows<{ usd: number | string | null }>(
    db,
    sql`select ${orgKeySpendThisMonth(orgId)} as usd`,
  )
  return Number(row?.usd ?? 0)
}

/** Tokens, cost and number of runs that reached a model, summed over one group. */
export type UsageTotals = { runs: number; inputTokens: number; outputTokens: number; costUsd: number }
export type UsageByJob = UsageTotals & { jobId: string; name: string; scope: string }
export type UsageByPerson = UsageTotals & { userId: string; name: string; email: string }
export type UsageByDay = UsageTotals & { day: string }
export type UsageReport = {
  days: number
  timezone: string
  /** Jobs the caller may see (shared ones and their own personal ones). */
  byJob: UsageByJob[]
  /** Other members' personal jobs, summed: an admin sees what they cost, not what they are. */
  otherPersonalJobs: UsageTotals
  byPerson: UsageByPerson[]
  byDay: UsageByDay[]
}

const totals = sql`count(r.id)::int as runs, coalesce(sum(r.input_tokens), 0)::bigint as input_tokens,
  coalesce(sum(r.output_tokens), 0)::bigint as output_tokens, coalesce(sum(r.cost_usd), 0)::float8 as cost_usd`

type RawTotals = {
  runs: number
  input_tokens: string | number
  output_tokens: string | number
  cost_usd: number
}
const toTotals = (row: RawTotals): UsageTotals => ({
  runs: Number(row.runs),
  inputTokens: Number(row.input_tokens),
  outputTokens: Number(row.output_tokens),
  costUsd: roundUsd(Number(row.cost_usd)),
})

/** The first instant of a report's window: the start of the day `days - 1` days ago, in `timezone`. */
export const windowStart = (days: number, timezone: string): SQL =>
  sql`(date_trunc('day', now() at time zone ${timezone}) - ${days - 1} * interval '1 day') at time zone ${timezone}`

/** Dollars summed in SQL, to the micro-dollar the cost columns hold. */
export const roundUsd = (usd: number): number => Math.round(usd * 1e6) / 1e6

/**
 * The organisation's run usage over the last `days` days (today included, days counted in
 * `timezone`), every run that reached a model; `byDay` has one entry per day, zeros included.
 */
export async function selectUsageReport(
  orgId: string,
  options: { days: number; timezone: string; viewerId: string },
  db: Db = getDb(),
): Promise<UsageReport> {
  const { days, timezone, viewerId } = options
  const since = windowStart(days, timezone)
  const where = sql`r.org_id = ${orgId} and r.started_at >= ${since} and r.model is not null`
  const visible = sql`(j.scope = 'shared' or j.created_by = ${viewerId})`
  const [byJob, [hidden], byPerson, byDay] = await Promise.all([
    queryRows<RawTotals & { job_id: string; name: string; scope: string }>(
      db,
      sql`select r.job_id, j.name, j.scope, ${totals} from job_runs r join jobs j on j.id = r.job_id
          where ${where} and ${visible} group by r.job_id, j.name, j.scope order by cost_usd desc, j.name`,
    ),
    queryRows<RawTotals>(
      db,
      sql`select ${totals} from job_runs r join jobs j on j.id = r.job_id where ${where} and not ${visible}`,
    ),
    queryRows<RawTotals & { user_id: string; name: string | null; email: string | null }>(
      db,
      sql`select r.run_as_user_id as user_id, u.name, u.email, ${totals} from job_runs r
          left join "user" u on u.id = r.run_as_user_id
          where ${where} group by r.run_as_user_id, u.name, u.email order by cost_usd desc, u.name`,
    ),
    queryRows<RawTotals & { day: string }>(
      db,
      sql`select to_char(d.day, 'YYYY-MM-DD') as day, ${totals}
          from generate_series(${since} at time zone ${timezone}, now() at time zone ${timezone}, interval '1 day') as d(day)
          left join job_runs r on ${where} and date_trunc('day', r.started_at at time zone ${timezone}) = date_trunc('day', d.day)
          group by d.day order by d.day`,
    ),
  ])
  return {
    days,
    timezone,
    byJob: byJob.map((r) => ({ jobId: r.job_id, name: r.name, scope: r.scope, ...toTotals(r) })),
    otherPersonalJobs: toTotals(hidden!),
    byPerson: byPerson.map((r) => ({
      userId: r.user_id,
      name: r.name ?? 'Former member',
      email: r.email ?? '',
      ...toTotals(r),
    })),
    byDay: byDay.map((r) => ({ day: r.day, ...toTotals(r) })),
  }
}
