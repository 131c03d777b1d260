/**
 * Each organisation's share of an instance's run slots. Sign-up is open, so any organisation may
 * be an attacker with many every-minute jobs whose runs last until their timeout: without a share,
 * its runs would take every slot and its older queued runs would go before anyone else's. Here an
 * organisation runs at most `cap` runs at once on an instance, and queued runs take turns: the
 * organisation with the fewest runs going starts next (its oldest ready run), oldest first on a tie.
 * Counted in memory from the runs this instance executes: a tick is the only place runs start, so
 * no two starts race, and each instance gives an organisation the same share of its own slots.
 */
import { sql, type SQL } from 'drizzle-orm'

export type OrgShare = {
  /** Runs executing on this instance, per organisation. */
  running: ReadonlyMap<string, number>
  /** Runs of one organisation this instance executes at once (SCHEDULER_ORG_CONCURRENCY). */
  cap: number
}

/** Organisations at their cap: their queued runs are not ready on this instance. */
export const fullOrgs = (share: OrgShare): string[] =>
  [...share.running].filter(([, n]) => n >= share.cap).map(([orgId]) => orgId)

/** `q.org_id` is not one of these organisations (a JSON array parameter: any length, one statement). */
export const notAmongOrgs = (orgIds: string[]): SQL =>
  orgIds.length === 0
    ? sql`true`
    : sql`q.org_id not in (select jsonb_array_elements_text(${JSON.stringify(orgIds)}::jsonb))`

/**
 * The order queued runs take turns in: an organisation's n-th ready run comes after every other
 * organisation's runs that would leave it with fewer going. Needs `org_turn`, the run's place in
 * its organisation's own queue (see readyQueued in start-queued.ts).
 */
export const turnOrder = (share: OrgShare): SQL =>
  sql`coalesce((${JSON.stringify(Object.fromEntries(share.running))}::jsonb ->> q.org_id)::int, 0) + q.org_turn`

/** Hands out starts one at a time, refusing an organisation once it reaches its cap. */
export function takeTurns(share: OrgShare) {
  const going = new Map(share.running)
  return {
    /** Counts a start for `orgId` if its share allows one more. */
    take(orgId: string): boolean {
      const n = going.get(orgId) ?? 0
      if (n >= share.cap) return false
      going.set(orgId, n + 1)
      return true
    },
  }
}
