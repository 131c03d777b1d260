/**
 * The clock tool: the current time in the caller's zone (in a run, the job's) or another one, so
 * "tomorrow at 9" or "every weekday morning" resolve against the real date and the right zone.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { isValidTimezone } from '../../cron/cron.ts'
import type { ToolContext } from '../tool-context.ts'

const ClockInput = z.object({
  timezone: z
    .string()
    .optional()
    .describe(
      "IANA time zone to tell the time in, e.g. Europe/Berlin; defaults to the job's zone in a run, else the person's",
    ),
})

/** The current time as the model needs it: ISO instant, local wall time, weekday, zone and offset. */
export function readClock(now: Date, timezone: string) {
  const parts = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone, ...options }).format(now)
  return {
    now: now.toISOString(),
    timezone,
    local: parts({ dateStyle: 'full', timeStyle: 'short', hourCycle: 'h23' }),
    date: new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(now),
    time: parts({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    weekday: parts({ weekday: 'long' }),
    utcOffset: parts({ timeZoneName: 'longOffset' }).split(' ').pop()?.replace('GMT', '') || '+00:00',
  }
}

/** What the model and the system prompt read about the tool. */
export const CLOCK_DESCRIPTION =
  "Current date and time in the person's time zone (or the given one). Use it before turning " +
  'relative times ("tomorrow at 9", "in an hour") into a schedule.'

export function createClockTool(ctx: ToolContext) {
  return tool({
    description: CLOCK_DESCRIPTION,
    inputSchema: ClockInput,
    execute: async ({ timezone }) => {
      const zone = timezone?.trim() || ctx.timezone || ctx.caller.timezone || 'UTC'
      if (!isValidTimezone(zone)) {
        return {
          ok: false as const,
          error: { status: 400, code: 'bad_request', message: `unknown time zone ${zone}` },
        }
      }
      return { ok: true as const, ...readClock((ctx.now ?? (() => new Date()))(), zone) }
    },
  })
}
