/**
 * The iCalendar feed (RFC 5545) of a person's upcoming runs: one event per fire in the next
 * {@link FEED_DAYS} days of every job they see, the earliest {@link FEED_MAX_EVENTS} of them, from
 * the same slot math as the calendar page.
 * Times are UTC instants (`…Z`), so every calendar app places them right whatever its zone; event
 * ids are stable per (job, slot), so a refresh updates events instead of duplicating them.
 */
import type { Caller } from '../auth/caller.ts'
import { listJobBriefs } from '../jobs/service.ts'
import { earliestFires } from './calendar.ts'
import { letTheLoopGo } from '../lib/loop-turn.ts'

export const FEED_DAYS = 30
/**
 * Events a feed carries at most: the earliest ones. A token holder may poll the feed, and 200
 * hourly jobs (an organisation's default limit) gave 20,000 events, 8 MB worked out and written in
 * one go (1.4 s of the server's loop, over 2 s on a busy machine) each time.
 */
export const FEED_MAX_EVENTS = 1_000
/** Events written between two turns of the event loop. */
const EVENTS_PER_TURN = 200
/** How long an event lasts in the calendar app: a run has no known end before it happens. */
const EVENT_MINUTES = 15

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

// Control characters a TEXT value may not hold (RFC 5545 §3.1: all but HTAB).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/g

/**
 * TEXT values escape backslash, semicolon, comma and line breaks (RFC 5545 §3.3.11); any other
 * control character is dropped, so nothing a person typed (an organisation's name, a job's
 * description) can start a line of its own in the feed.
 */
const text = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(CONTROL, '')

/** Lines longer than 75 octets are folded with CRLF + space, never inside a UTF-8 sequence (§3.1). */
function fold(line: string): string {
  const out: string[] = []
  let current = ''
  let bytes = 0
  for (const ch of line) {
    const size = Buffer.byteLength(ch)
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current)
      current = ''
      bytes = 0
    }
    current += ch
    bytes += size
  }
  out.push(current)
  return out.join('\r\n ')
}

/** The feed for `caller` as iCalendar text. */
export async function renderCalendarFeed(
  caller: Caller,
  appUrl: string,
  now: Date = new Date(),
): Promise<string> {
  const jobs = await listJobBriefs(caller, { scope: 'all' })
  const byId = new Map(jobs.map((j) => [j.id, j]))
  const to = Math.ceil((now.getTime() + FEED_DAYS * 86_400_000) / 3_600_000) * 3_600_000
  const { fires } = await earliestFires(jobs, { to, now: now.getTime() }, FEED_MAX_EVENTS)
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Clockwork//Job calendar//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(`Clockwork: ${caller.orgName}`)}`,
  ].map(fold)
  for (const [i, fire] of fires.entries()) {
    // Writing an event costs tens of microseconds (folding reads it a character at a time).
    if (i % EVENTS_PER_TURN === EVENTS_PER_TURN - 1) await letTheLoopGo()
    const job = byId.get(fire.jobId)!
    const url = `${appUrl.replace(/\/$/, '')}/jobs/${job.id}`
    lines.push(
      ...[
        'BEGIN:VEVENT',
        `UID:${job.id}-${fire.at}@clockwork`,
        `DTSTAMP:${stamp(now.getTime())}`,
        `DTSTART:${stamp(fire.at)}`,
        `DTEND:${stamp(fire.at + EVENT_MINUTES * 60_000)}`,
        `SUMMARY:${text(job.name)}`,
        `DESCRIPTION:${text(`${job.description}\n${url}`)}`,
        `URL:${url}`,
        'TRANSP:TRANSPARENT',
        'END:VEVENT',
      ].map(fold),
    )
  }
  lines.push('END:VCALENDAR')
  return `${lines.join('\r\n')}\r\n`
}
