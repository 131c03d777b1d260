/**
 * The pace of job mail (decisions 0531 and 0536): what a job's `email:` targets and its run's
 * send_notification send to one address, from any organisation, is at most JOB_MAIL_BURST in
 * JOB_MAIL_BURST_MINUTES and JOB_MAILS_PER_DAY in 24 hours, twice over: once for the mail of jobs
 * whose creator's account has the address (a person's mail to themselves), once for everyone
 * else's together. Nobody verifies the address an account signs up with, so unpaced a job every
 * minute made the deployment a relay to anyone's address; with one allowance for all, anyone whose
 * jobs may mail a person (a member of an organisation they are in) used it up and held back the
 * person's own job mail for up to a day.
 *
 * A mail takes its place before it is sent (a `job_mails` row, under the address's advisory lock,
 * so mails sent at once take turns and see each other's place) and gives it back when it could not
 * be sent, so an SMTP outage costs its retries nothing. The database clock decides. Rows older
 * than a day count for nothing and go hourly (JOB_MAIL_RETENTION_MS).
 */
import { sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { jobMails } from '../db/schema/integrations.ts'
import { inTransaction, queryRows, toDate } from '../db/sql.ts'

/**
 * Mails to one address within JOB_MAIL_BURST_MINUTES, in each of its two allowances: several jobs
 * at one hour, a note or two.
 */
export const JOB_MAIL_BURST = 5
export const JOB_MAIL_BURST_MINUTES = 10
/** Mails to one address in 24 hours, in each allowance: a few hourly jobs, not a job every minute. */
export const JOB_MAILS_PER_DAY = 100

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/**
 * When the address may be mailed again, given the times (ascending) it was mailed in the last day
 * and the time now; null when it may be now.
 */
export function pacedUntil(sent: readonly Date[], now: Date): Date | null {
  const waits: number[] = []
  const recent = sent.filter((t) => t.getTime() > now.getTime() - JOB_MAIL_BURST_MINUTES * MINUTE)
  if (recent.length >= JOB_MAIL_BURST)
    waits.push(recent[recent.length - JOB_MAIL_BURST]!.getTime() + JOB_MAIL_BURST_MINUTES * MINUTE)
  const today = sent.filter((t) => t.getTime() > now.getTime() - DAY)
  if (today.length >= JOB_MAILS_PER_DAY) waits.push(today[today.length - JOB_MAILS_PER_DAY]!.getTime() + DAY)
  return waits.length ? new Date(Math.max(...waits)) : null
}

/** A place taken for one mail (give it back if the mail was not sent), or when to try again. */
export type JobMailPlace = { id: number } | { pacedUntil: Date }

/**
 * Takes a place for one job mail to `address` (any case) in its allowance (`own`: from a job whose
 * creator's account has the address; else everyone else's), unless that allowance is full.
 */
export function takeJobMailPlace(address: string, own: boolean, db: Db): Promise<JobMailPlace> {
  const key = address.toLowerCase()
  return inTransaction(db, async (tx) => {
    await lockKey(tx, `job-mail:${key}`)
    const rows = await queryRows<{ sent_at: unknown; now: unknown }>(
      tx,
      sql`select m.sent_at, now() as now from (select now()) n
          left join ${jobMails} m
            on m.address = ${key} and m.own = ${own} and m.sent_at > now() - interval '1 day'
          order by m.sent_at`,
    )
    const now = toDate(rows[0]!.now)!
    const sent = rows.flatMap((r) => (r.sent_at === null ? [] : [toDate(r.sent_at)!]))
    const until = pacedUntil(sent, now)
    if (until) return { pacedUntil: until }
    const [row] = await tx.insert(jobMails).values({ address: key, own }).returning({ id: jobMails.id })
    return { id: row!.id }
  })
}

/** Gives back the place of a mail that was not sent. */
export async function giveBackJobMailPlace(place: { id: number }, db: Db): Promise<void> {
  await db.execute(sql`delete from ${jobMails} where id = ${place.id}`)
}

/**
 * What a paced attempt says, on the run's deliveries and to the agent: which allowance is full,
 * never whose mail filled it.
 */
export const pacedWords = (address: string, own: boolean, until: Date) =>
  `${address} had too many mails from ${own ? 'its own account’s' : 'other people’s'} Clockwork jobs ` +
  `recently (at most ${JOB_MAIL_BURST} in ${JOB_MAIL_BURST_MINUTES} minutes and ${JOB_MAILS_PER_DAY} a ` +
  `day, from all organisations): not sent, and not retried; it may be mailed again from ${until.toISOString()}`

/** How often each instance deletes the places older than a day (a watcher of the scheduler's). */
export const JOB_MAIL_RETENTION_MS = 60 * MINUTE
const BATCH = 1_000

/** Deletes the places taken more than a day before `now`, a batch at a time; answers how many. */
export async function deleteOldJobMails(now: SQL, db: Db = getDb()): Promise<number> {
  let total = 0
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with d as (
            delete from ${jobMails} where id in (
              select id from ${jobMails} where sent_at < ${now} - interval '1 day' limit ${BATCH})
            returning 1)
          select count(*)::int as n from d`,
    )
    const n = Number(row?.n ?? 0)
    total += n
    if (n < BATCH) return total
  }
}
