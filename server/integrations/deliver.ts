/**
 * Sending one message to one notify target (`email:`, `webhook:`, `slack:`), retried with backoff,
 * every attempt recorded against the run (status, response code, duration). Run results wait for
 * their retries in the database (delivery-queue.ts); the agent's tool waits here (`deliver`). Webhook bodies follow
 * Standard Webhooks: `webhook-id` (the same on every retry), `webhook-timestamp` and an HMAC-SHA256
 * `webhook-signature` with the endpoint's secret, made by the `standardwebhooks` library.
 */
import { Webhook } from 'standardwebhooks'
import { getDb, type Db } from '../db/client.ts'
import { deliveryAttempts } from '../db/schema/integrations.ts'
import { emailRecipient } from '../jobs/notify-members.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { OutboundRefused } from '../lib/outbound.ts'
import { sendEmail } from './email.ts'
import { loadEndpoint } from './endpoints.ts'
import { giveBackJobMailPlace, pacedWords, takeJobMailPlace } from './job-mail-pace.ts'
import { createPost, type PostFn } from './post.ts'

/** What is sent: a subject and text for people (email, Slack), a typed event for webhooks. */
export type DeliveryMessage = {
  type: 'run.succeeded' | 'run.failed' | 'agent.notification'
  subject: string
  text: string
  data: Record<string, unknown>
}

/** Where a message belongs: the run whose page lists the attempts, in its job's organisation. */
export type DeliveryContext = { orgId: string; runId: string; creatorId: string }

export type DeliveryConfig = {
  /** Waits between attempts; one attempt more than there are waits. */
  backoffMs: readonly number[]
  post: PostFn
  db: Db
}

/** 4 attempts over about 6 minutes: receivers restarting or briefly down still get the message. */
export const DELIVERY_BACKOFF_MS = [10_000, 60_000, 5 * 60_000] as const

export const defaultDeliveryConfig = (): DeliveryConfig => ({
  backoffMs: DELIVERY_BACKOFF_MS,
  post: createPost(),
  db: getDb(),
})

/** A failure not worth retrying (refused by policy, unknown endpoint, not a member). */
class Permanent extends Error {}

/** An email not sent because its address had too many job mails recently (job-mail-pace.ts). */
class Paced extends Permanent {
  constructor(
    address: string,
    own: boolean,
    readonly until: Date,
  ) {
    super(pacedWords(address, own, until))
  }
}

type Sent = { statusCode: number | null }

/** One message to one target: every attempt shares `messageId` (the `webhook-id`). */
export type Delivery = {
  ctx: DeliveryContext
  target: string
  message: DeliveryMessage
  messageId: string
  /** The number of this attempt (1 for the first). */
  attempt: number
}

/**
 * How one attempt went; `retry` says whether another may help (not for a refused target), and
 * `pacedUntil` when an email was held back by its address's pace (decision 0531), never retried.
 */
export type AttemptResult = {
  ok: boolean
  retry: boolean
  statusCode: number | null
  durationMs: number
  error: string | null
  pacedUntil: Date | null
}

/** Makes one attempt, recording nothing: the caller records it (with what happens next). */
export async function sendAttempt(delivery: Delivery, config: DeliveryConfig): Promise<AttemptResult> {
  const started = performance.now()
  let statusCode: number | null
  let error: string | null = null
  let retry = false
  let pacedUntil: Date | null = null
  try {
    const { ctx, target, message, messageId } = delivery
    statusCode = (await sendOnce(ctx, target, message, messageId, config)).statusCode
  } catch (err) {
    statusCode = err instanceof HttpStatus ? err.status : null
    const message = err instanceof Error ? err.message : String(err)
    // In the words saving the endpoint uses for the same refusal.
    error = (err instanceof OutboundRefused ? `refused by the outbound rule: ${message}` : message).slice(
      0,
      500,
    )
    retry = !(err instanceof Permanent || err instanceof OutboundRefused)
    if (err instanceof Paced) pacedUntil = err.until
  }
  const durationMs = Math.round(performance.now() - started)
  return { ok: error === null, retry, statusCode, durationMs, error, pacedUntil }
}

/** The attempt's row on the run's delivery list. */
export async function recordAttempt(delivery: Delivery, result: AttemptResult, db: Db): Promise<void> {
  const { ok, statusCode, durationMs, error, pacedUntil } = result
  const { ctx, messageId, target, attempt } = delivery
  await db
    .insert(deliveryAttempts)
    .values({ runId: ctx.runId, messageId, target, attempt, ok, statusCode, durationMs, error, pacedUntil })
}

/** The wait before the attempt after a failed `result`; undefined when there is none to make. */
export const nextWaitMs = (delivery: Delivery, result: AttemptResult, config: DeliveryConfig) =>
  result.ok || !result.retry ? undefined : config.backoffMs[delivery.attempt - 1]

/**
 * Sends `message` to `target` until it lands or the attempts run out, waiting in this process;
 * answers the last attempt's result. For the agent's send_notification, whose tool call waits for
 * the answer (run results go through the durable retry queue, delivery-queue.ts).
 */
export async function deliver(
  ctx: DeliveryContext,
  target: string,
  message: DeliveryMessage,
  config: DeliveryConfig = defaultDeliveryConfig(),
): Promise<AttemptResult> {
  const delivery: Delivery = { ctx, target, message, messageId: newId('msg'), attempt: 1 }
  for (; ; delivery.attempt++) {
    const result = await sendAttempt(delivery, config)
    await recordAttempt(delivery, result, config.db).catch((err: unknown) =>
      logger.error({ err, runId: ctx.runId, target }, 'could not record a delivery attempt'),
    )
    if (result.ok) return result
    const wait = nextWaitMs(delivery, result, config)
    if (wait === undefined) {
      logDeliveryFailed(delivery, result)
      return result
    }
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/** Logs a message's end without landing; one held back by its address's pace is no failure. */
export function logDeliveryFailed(delivery: Delivery, result: AttemptResult) {
  const { runId } = delivery.ctx
  const fields = { runId, target: delivery.target, attempt: delivery.attempt, error: result.error }
  if (result.pacedUntil) logger.info(fields, 'delivery held back by its address’s pace')
  else logger.warn(fields, 'delivery failed')
}

class HttpStatus extends Error {
  constructor(readonly status: number) {
    super(`the receiver answered ${status}`)
  }
}

async function sendOnce(
  ctx: DeliveryContext,
  target: string,
  message: DeliveryMessage,
  messageId: string,
  config: DeliveryConfig,
): Promise<Sent> {
  const colon = target.indexOf(':')
  const kind = target.slice(0, colon)
  const rest = target.slice(colon + 1)
  if (kind === 'email') {
    const recipient = await emailRecipient(ctx.orgId, ctx.creatorId, rest, config.db)
    if (!recipient) throw new Permanent(`${rest} is not a member of the organisation`)
    // The creator mailing their own address has an allowance of its own (decision 0536).
    const place = await takeJobMailPlace(rest, recipient.own, config.db)
    if ('pacedUntil' in place) throw new Paced(rest, recipient.own, place.pacedUntil)
    await sendEmail({ to: rest, subject: message.subject, text: message.text }).catch(async (err: Error) => {
      // Not sent: its place is another mail's (a retry's).
      await giveBackJobMailPlace(place, config.db)
      // No SMTP configured will not fix itself within the retries.
      throw /SMTP_URL/.test(err.message) ? new Permanent(err.message) : err
    })
    return { statusCode: null }
  }
  if (kind !== 'webhook' && kind !== 'slack') throw new Permanent(`unknown target ${target}`)
  const endpoint = await loadEndpoint(ctx.orgId, kind, rest, config.db)
  if (!endpoint) throw new Permanent(`no ${kind} endpoint named ${rest} (an admin registers it in Settings)`)
  let headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Clockwork' }
  let body: string
  if (kind === 'slack') {
    body = JSON.stringify({ text: `*${message.subject}*\n${message.text}` })
  } else {
    const now = new Date()
    body = JSON.stringify({ type: message.type, timestamp: now.toISOString(), data: message.data })
    const signature = new Webhook(endpoint.signingSecret ?? '').sign(messageId, now, body)
    headers = {
      ...headers,
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    }
  }
  const res = await config.post(endpoint.url, headers, body)
  if (res.status < 200 || res.status >= 300) throw new HttpStatus(res.status)
  return { statusCode: res.status }
}
