/**
 * A chat turn's record: on whose key it ran and what it spent. Turns on the deployment's key are
 * counted per organisation over a rolling 24 hours (`ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY`), as
 * runs on that key are; past the limit a turn is refused before anything is stored (decision 0454).
 */
import { and, eq, ne, sql } from 'drizzle-orm'
import type { Caller } from '../auth/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { lockKey } from '../db/lock.ts'
import { chatTurns } from '../db/schema/index.ts'
import { env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { DEPLOYMENT_BUDGET_LOCK, deploymentBudgetRefusal } from '../runs/deployment-budget.ts'
import { roundUsd } from '../runs/usage.ts'
import { deletedRecords } from '../runs/deleted-spend.ts'
import type { KeySource } from './model.ts'

const limitMessage = (limit: number) =>
  `This organisation has used its ${limit} chat turns on the deployment's model key in the last 24 hours. ` +
  'Add your own key under Settings → Models to go on, or ask the operator to raise ' +
  'ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY.'

/**
 * Records the start of turn `id`. On the deployment's key, the organisation's turns take turns
 * here (an advisory lock until the insert commits), so turns sent at once cannot all take the
 * last place, and the turn holds `firstCallReserveUsd` of the day's budget until its first step
 * is admitted against it (decision 0496).
 *
 * @throws HttpError 429 `quota_exceeded` when the organisation's turns on that key are used up, or
 *   the server's daily budget for it (decision 0455)
 */
export async function openChatTurn(
  caller: Caller,
  id: string,
  keySource: KeySource,
  firstCallReserveUsd = 0,
): Promise<void> {
  await getDb().transaction(async (tx) => {
    let reservedUsd = 0
    if (keySource === 'deployment') {
      await lockKey(tx, `chat-turns:${caller.orgId}`)
      const limit = env().ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY
      if ((await countDeploymentKeyTurns(caller.orgId, tx)) >= limit) {
        throw new HttpError(429, 'quota_exceeded', limitMessage(limit))
      }
      // Admitted as a run's call is (decision 0496): under the budget's lock, the turn holding its
      // first call's worst case, so turns sent at once see each other before any is paid for.
      await lockKey(tx, DEPLOYMENT_BUDGET_LOCK)
      const paused = await deploymentBudgetRefusal(null, 0, tx)
      if (paused) throw new HttpError(429, 'quota_exceeded', paused)
      reservedUsd = roundUsd(firstCallReserveUsd)
    }
    await tx
      .insert(chatTurns)
      .values({ id, orgId: caller.orgId, userId: caller.userId, keySource, reservedUsd: String(reservedUsd) })
  })
}

/** Forgets a turn that never reached the model (its thread refused it): nothing of it stays. */
export async function dropChatTurn(id: string): Promise<void> {
  await getDb().delete(chatTurns).where(eq(chatTurns.id, id))
}

/**
 * What the turn spent, once it has ended (a null cost: its model has no known price). A turn on a
 * person's or the organisation's own key that spent nothing (its call failed: a key that is no key
 * fails for free) is forgotten instead, so a loop of such turns leaves no row each (decision 0504);
 * on the deployment's key every turn stays, counted towards the day's turns.
 */
export async function settleChatTurn(
  id: string,
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null },
): Promise<void> {
  if (usage.inputTokens === 0 && usage.outputTokens === 0) {
    const [forgotten] = await getDb()
      .delete(chatTurns)
      .where(and(eq(chatTurns.id, id), ne(chatTurns.keySource, 'deployment')))
      .returning({ id: chatTurns.id })
    if (forgotten) return
  }
  await getDb()
    .update(chatTurns)
    .set({
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      costUsd: usage.costUsd === null ? null : String(usage.costUsd),
      // Ended: it holds nothing of the day's budget any more.
      reservedUsd: '0',
    })
    .where(eq(chatTurns.id, id))
}

/**
 * The organisation's chat turns on the deployment's key in the last 24 hours, deleted ones included
 * (decision 0520).
 */
export async function countDeploymentKeyTurns(orgId: string, db: Db = getDb()): Promise<number> {
  const since = sql`now() - interval '24 hours'`
  const rows = await db
    .select({
      n: sql<number>`count(*)::int + ${deletedRecords({ keySource: 'deployment', orgId, kind: 'turn', since })}`,
    })
    .from(chatTurns)
    .where(
      and(
        eq(chatTurns.orgId, orgId),
        eq(chatTurns.keySource, 'deployment'),
        sql`${chatTurns.startedAt} > ${since}`,
      ),
    )
  return Number(rows[0]?.n ?? 0)
}
