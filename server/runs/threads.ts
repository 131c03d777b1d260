/**
 * SQL for agent threads and their messages (`agent_threads`, `agent_messages`). A message row
 * holds one AI SDK UI message: its role and parts (text, tool calls with inputs and results).
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { agentMessages, agentThreads } from '../db/schema/app.ts'

export type ThreadRow = typeof agentThreads.$inferSelect
export type MessageRow = typeof agentMessages.$inferSelect

export async function insertThread(
  input: { id: string; orgId: string; userId: string; kind: 'chat' | 'run'; title: string | null },
  db: Db = getDb(),
): Promise<ThreadRow> {
  const [row] = await db.insert(agentThreads).values(input).returning()
  return row!
}

/** The thread if it belongs to `userId` in `orgId` and is of `kind`; nobody else's. */
export async function findOwnThread(
  owner: { userId: string; orgId: string; kind: 'chat' | 'run' },
  id: string,
  db: Db = getDb(),
): Promise<ThreadRow | undefined> {
  const rows = await db
    .select()
    .from(agentThreads)
    .where(
      and(
        eq(agentThreads.id, id),
        eq(agentThreads.userId, owner.userId),
        eq(agentThreads.orgId, owner.orgId),
        eq(agentThreads.kind, owner.kind),
      ),
    )
  return rows[0]
}

/** A person's chat threads in one organisation, most recently active first. */
export async function selectChatThreads(
  owner: { userId: string; orgId: string },
  limit: number,
  db: Db = getDb(),
): Promise<ThreadRow[]> {
  return db
    .select()
    .from(agentThreads)
    .where(
      and(
        eq(agentThreads.userId, owner.userId),
        eq(agentThreads.orgId, owner.orgId),
        eq(agentThreads.kind, 'chat'),
      ),
    )
    .orderBy(desc(agentThreads.updatedAt))
    .limit(limit)
}

export async function selectThreadMessages(threadId: string, db: Db = getDb()): Promise<MessageRow[]> {
  return db
    .select()
    .from(agentMessages)
    .where(eq(agentMessages.threadId, threadId))
    .orderBy(asc(agentMessages.seq))
}

/** Appends a message after the thread's last one and marks the thread active. */
export async function appendThreadMessage(
  input: { id: string; threadId: string; role: MessageRow['role']; parts: unknown[] },
  db: Db = getDb(),
): Promise<void> {
  await db.insert(agentMessages).values({
    ...input,
    seq: sql`(select coalesce(max(seq), -1) + 1 from agent_messages where thread_id = ${input.threadId})`,
  })
  await touchThread(input.threadId, db)
}

/** Replaces the parts of a stored message (an assistant message continued after a confirmation). */
export async function updateMessageParts(
  threadId: string,
  id: string,
  parts: unknown[],
  db: Db = getDb(),
): Promise<boolean> {
  const rows = await db
    .update(agentMessages)
    .set({ parts })
    .where(and(eq(agentMessages.id, id), eq(agentMessages.threadId, threadId)))
    .returning({ id: agentMessages.id })
  await touchThread(threadId, db)
  return rows.length > 0
}

async function touchThread(threadId: string, db: Db) {
  await db
    .update(agentThreads)
    .set({ updatedAt: sql`now()` })
    .where(eq(agentThreads.id, threadId))
}
