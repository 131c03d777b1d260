/**
 * Run results' retries, kept in the database (pending_deliveries) so a restart during the backoff
 * loses none. The first attempt is made at once by the instance that settled the run; a failure
 * worth retrying is recorded together with the row saying when the next attempt is due. This
 * process wakes itself for it, and every instance sweeps for due rows on start and every
 * `sweepMs`, so one that died mid-backoff leaves nothing behind. A row is claimed with
 * `FOR UPDATE SKIP LOCKED` and its due time pushed past the send, so two instances never both
 * send it; an instance that dies mid-send leaves it due again after CLAIM_MS (receivers
 * deduplicate on `webhook-id`).
 */
import { eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { pendingDeliveries } from '../db/schema/integrations.ts'
import { inTransaction, plusMs } from '../db/sql.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import {
  logDeliveryFailed,
  nextWaitMs,
  recordAttempt,
  sendAttempt,
  type Delivery,
  type DeliveryConfig,
  type DeliveryContext,
  type DeliveryMessage,
} from './deliver.ts'

/** How long a claimed attempt is ours: well past a send's own timeouts (10 s HTTP, SMTP's). */
export const CLAIM_MS = 5 * 60_000
/** How often each instance looks for due attempts another one left (a restart, a crash). */
export const DELIVERY_SWEEP_MS = 30_000
/** Rows claimed per statement; a sweep claims again while it gets full batches. */
const CLAIM_BATCH = 20

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>

/** `configOf` is read when there is work (not at creation: the database may not be open yet). */
export function createDeliveryQueue(configOf: () => DeliveryConfig) {
  const inFlight = new Set<Promise<unknown>>()
  /** Wake-ups armed in this process, each with the resolve that ends its wait early on stop(). */
  const timers = new Map<NodeJS.Timeout, () => void>()
  let stopped = false

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p)
    void p.finally(() => inFlight.delete(p)).catch(() => {})
    return p
  }

  /** Makes `delivery`'s attempt and records it with what comes next, in one transaction. */
  async function attempt(delivery: Delivery, queued: boolean): Promise<boolean> {
    const config = configOf()
    const result = await sendAttempt(delivery, config)
    const wait = nextWaitMs(delivery, result, config)
    try {
      await inTransaction(config.db, async (tx) => {
        await recordAttempt(delivery, result, tx)
        if (wait !== undefined) await queueNext(delivery, wait, tx)
        else if (queued)
          await tx.delete(pendingDeliveries).where(eq(pendingDeliveries.messageId, delivery.messageId))
      })
    } catch (err) {
      logger.error(
        { err, runId: delivery.ctx.runId, target: delivery.target },
        'could not record a delivery attempt',
      )
      return result.ok
    }
    if (wait !== undefined) wakeIn(wait)
    else if (!result.ok) logDeliveryFailed(delivery, result)
    return result.ok
  }

  /** The row for the next attempt, due after `wait` by the database clock (the sweep's clock). */
  async function queueNext(delivery: Delivery, wait: number, tx: Db) {
    const due = plusMs(sql`now()`, wait)
    const { ctx, target, message, messageId } = delivery
    await tx
      .insert(pendingDeliveries)
      .values({
        messageId,
        runId: ctx.runId,
        orgId: ctx.orgId,
        creatorId: ctx.creatorId,
        target,
        message,
        attempt: delivery.attempt + 1,
        nextAttemptAt: due,
      })
      .onConflictDoUpdate({
        target: pendingDeliveries.messageId,
        set: { attempt: delivery.attempt + 1, nextAttemptAt: due },
      })
  }

  /** Claims due rows (skipping those another instance holds), pushing their due time past the send. */
  function claimDue() {
    const { db } = configOf()
    const due = db
      .select({ id: pendingDeliveries.messageId })
      .from(pendingDeliveries)
      .where(lte(pendingDeliveries.nextAttemptAt, sql`now()`))
      .orderBy(pendingDeliveries.nextAttemptAt)
      .limit(CLAIM_BATCH)
      .for('update', { skipLocked: true })
    return db
      .update(pendingDeliveries)
      .set({ nextAttemptAt: plusMs(sql`now()`, CLAIM_MS) })
      .where(inArray(pendingDeliveries.messageId, due))
      .returning()
  }

  /** Sends every due attempt (this instance's and any other's); returns how many it made. */
  async function sendDue(): Promise<number> {
    let made = 0
    for (let claimed = CLAIM_BATCH; claimed === CLAIM_BATCH && !stopped;) {
      const rows = await claimDue()
      claimed = rows.length
      made += rows.length
      await Promise.all(
        rows.map((row) =>
          attempt(
            {
              ctx: { orgId: row.orgId, runId: row.runId, creatorId: row.creatorId },
              target: row.target,
              message: row.message as DeliveryMessage,
              messageId: row.messageId,
              attempt: row.attempt,
            },
            true,
          ),
        ),
      )
    }
    return made
  }

  /** Sends the due attempts after `ms`, in this process (the sweep covers it if this one stops). */
  function wakeIn(ms: number) {
    if (stopped) return
    const woken = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      // Never what keeps the process alive: the rows are in the database.
      timer.unref()
      timers.set(timer, resolve)
    })
    void track(
      woken
        .then(() => (stopped ? 0 : sendDue()))
        .catch((err: unknown) => logger.error({ err }, 'could not send due delivery retries')),
    )
  }

  return {
    /** The first attempt of a message, now; a failure worth retrying is queued. True when it landed. */
    send(ctx: DeliveryContext, target: string, message: DeliveryMessage): Promise<boolean> {
      return attempt({ ctx, target, message, messageId: newId('msg'), attempt: 1 }, false)
    },
    sendDue,
    /** Counts `p` as this queue's work, so idle() waits for it (run delivery's own sends). */
    track,
    /** Waits until nothing is in flight or armed here (tests; retries queued here included). */
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
    /** Stops arming and sending here; queued attempts stay in the database for the next instance. */
    async stop() {
      stopped = true
      for (const [timer, resolve] of timers) {
        clearTimeout(timer)
        resolve()
      }
      timers.clear()
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
  }
}
