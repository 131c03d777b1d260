/**
 * The job fields of delivery and alerts (issue 16.3, 16.5, 17.4): where a run's result goes, how
 * many failures in a row raise an alert, and the dead-man's switch. Registered in fields.ts.
 */
import { z } from 'zod'

/** A slug, as endpoint names are (`webhook:ops-feed`). */
const ENDPOINT_NAME = '[a-z0-9][a-z0-9-]{0,62}'
const TARGET = new RegExp(
  `^(?:email:[^\\s@,]+@[^\\s@,]+\\.[^\\s@,]+|webhook:${ENDPOINT_NAME}|slack:${ENDPOINT_NAME})$`,
)
/** At most this many targets per list: a job's result is not a mailing list. */
export const MAX_NOTIFY_TARGETS = 10
/**
 * `email:` and the longest address mail can carry (254). Checked before TARGET and stopping there:
 * TARGET's domain backtracks quadratically (`email:a@` and 100,000 dots held the loop 11 s).
 */
const MAX_TARGET_LENGTH = 260

export const NotifyTarget = z
  .string({ error: 'must be a target like email:ana@example.com, webhook:<name> or slack:<name>' })
  .trim()
  .max(MAX_TARGET_LENGTH, { error: `must be at most ${MAX_TARGET_LENGTH} characters`, abort: true })
  .regex(TARGET, {
    error:
      'must be email:<address> (an organisation member), webhook:<name> or slack:<name> (registered by an admin)',
  })
  .describe(
    'email:<address of an org member or the creator>, webhook:<endpoint name> or slack:<endpoint name>',
  )
export type NotifyTarget = z.infer<typeof NotifyTarget>

const TargetList = z
  .array(NotifyTarget, { error: 'must be a list of targets' })
  .max(MAX_NOTIFY_TARGETS, { error: `must list at most ${MAX_NOTIFY_TARGETS} targets` })

export const Notify = z
  .strictObject(
    { onSuccess: TargetList.optional(), onFailure: TargetList.optional() },
    { error: 'must be an object { onSuccess: [targets], onFailure: [targets] }' },
  )
  .nullable()
  .describe(
    'Where the run result is sent when a run ends: { onSuccess: [...], onFailure: [...] } with targets ' +
      'email:<org member address>, webhook:<name>, slack:<name> (endpoints admins registered); null: nowhere',
  )
export type Notify = z.infer<typeof Notify>

export const AlertAfterFailures = z
  .number({ error: 'must be a whole number from 1 to 10' })
  .int({ error: 'must be a whole number from 1 to 10' })
  .min(1, { error: 'must be at least 1' })
  .max(10, { error: 'must be at most 10' })
  .describe(
    'After this many failed runs in a row the creator (and, for a shared job, the org admins) is alerted, once per streak (1–10, default 2)',
  )

const DURATION = /^(\d{1,4})\s*(m|min|h|d)$/
const UNIT_MS = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 } as const
/** 5 minutes to 90 days (run history is kept 90 days by default). */
const MIN_WINDOW_MS = 5 * 60_000
const MAX_WINDOW_MS = 90 * 86_400_000

/** Milliseconds of a window like `26h`; null when it is not one. */
export function windowMs(text: string): number | null {
  const m = DURATION.exec(text.trim())
  return m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : null
}

export const ExpectSuccessWithin = z
  .string({ error: 'must be a duration like 26h, 90m or 2d' })
  .trim()
  .transform((text, ctx) => {
    const ms = windowMs(text)
    if (ms === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration like 26h, 90m or 2d' })
      return z.NEVER
    }
    if (ms < MIN_WINDOW_MS || ms > MAX_WINDOW_MS) {
      ctx.addIssue({ code: 'custom', message: 'must be between 5m and 90d' })
      return z.NEVER
    }
    // One spelling Postgres reads as an interval ('26h', '90m', '2d').
    return text.replace(/\s+/g, '').replace(/min$/, 'm')
  })
  .nullable()
  .describe(
    "Dead-man's switch: alert the creator (and, for a shared job, the admins) when no run succeeded within this long (e.g. 26h for a daily job); null: off",
  )
