/**
 * What chat spent: the organisation's chat turns over the usage page's window, in total, per
 * person, per key source (one aggregate over `chat_turns`, grouping sets) and per day (a second,
 * grouped by day then laid on every day of the window). Both read through its (org_id, started_at)
 * index; a turn counts on the day it started, as a run does.
 */
import { sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import type { chatTurns } from '../db/schema/index.ts'
import { queryRows } from '../db/sql.ts'
import { roundUsd, windowStart } from './usage.ts'

export type ChatKeySource = (typeof chatTurns.$inferSelect)['keySource']

/** Turns, tokens and cost summed over one group. */
export type ChatTotals = {
  turns: number
  inputTokens: number
  outputTokens: number
  /** USD of the turns whose model has a known price; null when none of the group's turns has one. */
  costUsd: number | null
  /** Ended turns whose model has no known price: their cost is unknown, not zero. */
  unpricedTurns: number
}
export type ChatUsageByPerson = ChatTotals & { userId: string; name: string; email: string }
export type ChatUsageByKey = ChatTotals & { keySource: ChatKeySource }
/** One day of the window (`YYYY-MM-DD`, in the report's time zone); a day without turns has zeros. */
export type ChatUsageByDay = ChatTotals & { day: string }
export type ChatUsage = {
  total: ChatTotals
  byPerson: ChatUsageByPerson[]
  byKeySource: ChatUsageByKey[]
  byDay: ChatUsageByDay[]
}

type RawTotals = {
  turns: number
  input_tokens: string | number
  output_tokens: string | number
  cost_usd: number | null
  unpriced_turns: number
}
type Raw = RawTotals & {
  by_person: boolean
  by_key: boolean
  user_id: string | null
  name: string | null
  email: string | null
  key_source: ChatKeySource | null
}

const sums = sql`coalesce(sum(t.input_tokens), 0)::bigint as input_tokens,
  coalesce(sum(t.output_tokens), 0)::bigint as output_tokens, sum(t.cost_usd)::float8 as cost_usd,
  (count(*) filter (where t.input_tokens is not null and t.cost_usd is null))::int as unpriced_turns`

const toTotals = (row: RawTotals): ChatTotals => {
  const unpricedTurns = Number(row.unpriced_turns)
  // A sum over no priced turn is null: unknown when some ended unpriced, nothing spent yet otherwise
  // (turns still going on have no cost until they end).
  const known = row.cost_usd === null ? (unpricedTurns > 0 ? null : 0) : roundUsd(Number(row.cost_usd))
  return {
    turns: Number(row.turns),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costUsd: known,
    unpricedTurns,
  }
}

/** The organisation's chat turns over the last `days` days (today included, days in `timezone`). */
export async function selectChatUsage(
  orgId: string,
  options: { days: number; timezone: string },
  db: Db = getDb(),
): Promise<ChatUsage> {
  const { days, timezone } = options
  const since = windowStart(days, timezone)
  const where = sql`t.org_id = ${orgId} and t.started_at >= ${since}`
  const [rows, byDay] = await Promise.all([
    queryRows<Raw>(
      db,
      sql`select grouping(t.user_id) = 0 as by_person, grouping(t.key_source) = 0 as by_key,
            t.user_id, u.name, u.email, t.key_source, count(*)::int as turns, ${sums}
          from chat_turns t left join "user" u on u.id = t.user_id
          where ${where}
          group by grouping sets ((), (t.user_id, u.name, u.email), (t.key_source))
          order by cost_usd desc nulls last, turns desc, u.name, t.key_source`,
    ),
    // Grouped once by day, then joined to the window's days so a day without turns reads zero.
    queryRows<RawTotals & { day: string }>(
      db,
      sql`with per_day as (
            select date_trunc('day', t.started_at at time zone ${timezone}) as day, count(*)::int as turns, ${sums}
            from chat_turns t where ${where} group by 1
          )
          select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(p.turns, 0)::int as turns,
            coalesce(p.input_tokens, 0)::bigint as input_tokens, coalesce(p.output_tokens, 0)::bigint as output_tokens,
            p.cost_usd, coalesce(p.unpriced_turns, 0)::int as unpriced_turns
          from generate_series(${since} at time zone ${timezone}, now() at time zone ${timezone}, interval '1 day') as d(day)
          left join per_day p on p.day = d.day
          order by d.day`,
    ),
  ])
  // The empty grouping set always answers one row, zeros included.
  const total = rows.find((r) => !r.by_person && !r.by_key)!
  return {
    total: toTotals(total),
    byPerson: rows
      .filter((r) => r.by_person)
      .map((r) => ({
        userId: r.user_id!,
        name: r.name ?? 'Former member',
        email: r.email ?? '',
        ...toTotals(r),
      })),
    byKeySource: rows.filter((r) => r.by_key).map((r) => ({ keySource: r.key_source!, ...toTotals(r) })),
    byDay: byDay.map((r) => ({ day: r.day, ...toTotals(r) })),
  }
}
