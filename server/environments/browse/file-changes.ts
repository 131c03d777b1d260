/**
 * The recent file events of one environment, for its page and the HTTP API: what the commands run
 * there (by the agent in chat or a job run, or a person's command box) created, changed or
 * deleted, as the watchers recorded them in the audit (kind `change`, rule: the type).
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Caller } from '../../access/caller.ts'
import { canViewJob } from '../../access/rules.ts'
import { getDb } from '../../db/client.ts'
import { user } from '../../db/schema/auth.ts'
import { environmentAudit } from '../../db/schema/environments.ts'
import { notFound } from '../../lib/errors.ts'
import { queryInteger } from '../../lib/query-integer.ts'
import { clipText } from '../../lib/text.ts'
import { parseInput } from '../../lib/validate.ts'
import { findEnvironmentById } from '../store.ts'
import { type FileEvent, MAX_CHANGE_PATH } from '../watch/watch.ts'

export type FileChange = FileEvent & {
  id: number
  /** Who ran the command (null once they left). */
  actor: string | null
  /** Where the command came from: a job run, a chat, or a person's command box. */
  via: 'run' | 'chat' | 'person'
  runId: string | null
}

const ChangesQuery = z.strictObject({
  limit: queryInteger({ min: 1, max: 500 }).default(30).describe('How many, newest first'),
})

/** The newest file events of an environment the caller can see. @throws 404 when not visible. */
export async function recentFileChanges(
  caller: Caller,
  id: string,
  query: unknown = {},
): Promise<{ changes: FileChange[] }> {
  const { limit } = parseInput(ChangesQuery, query)
  const row = await findEnvironmentById(id)
  if (!row || !canViewJob(caller, { orgId: row.orgId, scope: row.scope, createdBy: row.createdBy })) {
    throw notFound('No such environment')
  }
  // Rows recorded before paths were cut (MAX_CHANGE_PATH) are read cut too: the answer stays
  // within `limit` × MAX_CHANGE_PATH characters of paths, whatever the audit holds.
  const rows = await getDb()
    .select({
      id: environmentAudit.id,
      at: environmentAudit.at,
      rule: environmentAudit.rule,
      runId: environmentAudit.runId,
      threadId: environmentAudit.threadId,
      head: sql<string>`left(${environmentAudit.subject}, ${MAX_CHANGE_PATH})`,
      length: sql<number>`char_length(${environmentAudit.subject})`.mapWith(Number),
      actor: user.name,
    })
    .from(environmentAudit)
    .leftJoin(user, eq(user.id, environmentAudit.actorId))
    .where(and(eq(environmentAudit.environmentId, id), eq(environmentAudit.kind, 'change')))
    .orderBy(desc(environmentAudit.id))
    .limit(limit)
  return {
    changes: rows.map((entry) => ({
      id: entry.id,
      type: entry.rule as FileEvent['type'],
      path: clipText(entry.head, MAX_CHANGE_PATH, entry.length),
      timestamp: entry.at.toISOString(),
      actor: entry.actor,
      via: entry.runId ? 'run' : entry.threadId ? 'chat' : 'person',
      runId: entry.runId,
    })),
  }
}
