/**
 * The one home of agent-thread storage (`agent_threads`, `agent_messages`): chat threads and run
 * transcripts alike. A message row holds one AI SDK UI message: its role and parts (text, tool
 * calls with inputs and results). A run's thread (kind 'run') starts with the job's instructions
 * as its first user message, then whatever the executor produced. Every write passes its text
 * through toPostgresJson/Text: model output may hold U+0000 or a lone surrogate, which Postgres rejects.
 */
import { and, asc, desc, eq, gte, like, lt, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { agentMessages, agentThreads } from '../db/schema/app.ts'
import { queryRows } from '../db/sql.ts'
import { toPostgresJson, toPostgresText } from '../db/text.ts'
import { newId } from '../lib/ids.ts'
import type { ExecutorMessage } from './executor.ts'
import type { StartedRun } from './run-job.ts'
import type { TranscriptMessage } from './schema.ts'

export type ThreadRow = typeof agentThreads.$inferSelect
export type MessageRow = typeof agentMessages.$inferSelect

export async function insertThread(
  input: { id: string; orgId: string; userId: string; kind: 'chat' | 'run'; title: string | null },
  db: Db = getDb(),
): Promise<ThreadRow> {
  const title = input.title === null ? null : toPostgresText(input.title)
  const [row] = await db
    .insert(agentThreads)
    .values({ ...input, title })
    .returning()
  return row!
}

/**
 * `userId`'s chat threads in each organisation they belong to, most first: what their History
 * lists in each. Chats in an organisation they left stay stored (they come back with the person)
 * but are not theirs to see or delete, so they are not counted (decision 0495).
 */
export async function chatThreadsByOrganisation(
  userId: string,
  db: Db = getDb(),
): Promise<{ orgId: string; name: string; n: number }[]> {
  return queryRows<{ orgId: string; name: string; n: number }>(
    db,
    sql`select t.org_id as "orgId", o.name, count(*)::int as n
          from agent_threads t
          join member m on m.organization_id = t.org_id and m.user_id = t.user_id
          join organization o on o.id = t.org_id
         where t.user_id = ${userId} and t.kind = 'chat'
         group by t.org_id, o.name
         order by n desc, o.name`,
  )
}

type ThreadOwner = { userId: string; orgId: string; kind: 'chat' | 'run' }

const isOwnThread = (owner: ThreadOwner, id: string) =>
  and(
    eq(agentThreads.id, id),
    eq(agentThreads.userId, owner.userId),
    eq(agentThreads.orgId, owner.orgId),
    eq(agentThreads.kind, owner.kind),
  )

/** The thread if it belongs to `userId` in `orgId` and is of `kind`; nobody else's. */
export async function findOwnThread(
  owner: ThreadOwner,
  id: string,
  db: Db = getDb(),
): Promise<ThreadRow | undefined> {
  const rows = await db.select().from(agentThreads).where(isOwnThread(owner, id))
  return rows[0]
}

/**
 * Deletes the thread if it belongs to `userId` in `orgId` and is of `kind`, its messages with it
 * (the foreign key cascades, in the same statement). Whether there was one.
 */
export async function deleteOwnThread(owner: ThreadOwner, id: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db.delete(agentThreads).where(isOwnThread(owner, id)).returning({ id: agentThreads.id })
  return rows.length > 0
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

/**
 * How many messages the thread holds, or holds before `beforeSeq` (an index-only count over
 * `agent_messages_seq_uq`).
 */
export async function countThreadMessages(
  threadId: string,
  db: Db = getDb(),
  { beforeSeq }: { beforeSeq?: number } = {},
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(agentMessages)
    .where(
      and(
        eq(agentMessages.threadId, threadId),
        beforeSeq === undefined ? undefined : lt(agentMessages.seq, beforeSeq),
      ),
    )
  return row!.n
}

/** The size of one stored message, without its parts. */
export type MessageSize = { id: string; seq: number; role: MessageRow['role']; bytes: number }

/** The sizes of the thread's latest `limit` messages, newest first; their parts stay in the database. */
export async function selectMessageSizes(
  threadId: string,
  limit: number,
  db: Db = getDb(),
): Promise<MessageSize[]> {
  return db
    .select({
      id: agentMessages.id,
      seq: agentMessages.seq,
      role: agentMessages.role,
      bytes: sql<number>`octet_length(${agentMessages.parts}::text)`,
    })
    .from(agentMessages)
    .where(eq(agentMessages.threadId, threadId))
    .orderBy(desc(agentMessages.seq))
    .limit(limit)
}

/** The thread's messages from `fromSeq` on, in order. */
export async function selectMessagesFrom(
  threadId: string,
  fromSeq: number,
  db: Db = getDb(),
): Promise<MessageRow[]> {
  return db
    .select()
    .from(agentMessages)
    .where(and(eq(agentMessages.threadId, threadId), gte(agentMessages.seq, fromSeq)))
    .orderBy(asc(agentMessages.seq))
}

/**
 * Up to `limit` of the thread's messages before `beforeSeq` (the latest ones without it), in
 * order, and whether earlier ones exist.
 */
export async function selectMessagePage(
  threadId: string,
  { limit, beforeSeq }: { limit: number; beforeSeq?: number },
  db: Db = getDb(),
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(agentMessages)
    .where(
      and(
        eq(agentMessages.threadId, threadId),
        beforeSeq === undefined ? undefined : lt(agentMessages.seq, beforeSeq),
      ),
    )
    .orderBy(desc(agentMessages.seq))
    .limit(limit + 1)
  return { rows: rows.slice(0, limit).reverse(), hasMore: rows.length > limit }
}

/** The place (seq) of message `id` in the thread, or undefined when the thread has no such message. */
export async function findMessageSeq(
  threadId: string,
  id: string,
  db: Db = getDb(),
): Promise<number | undefined> {
  const rows = await db
    .select({ seq: agentMessages.seq })
    .from(agentMessages)
    .where(and(eq(agentMessages.threadId, threadId), eq(agentMessages.id, id)))
  return rows[0]?.seq
}

/** Appends a message after the thread's last one and marks the thread active. */
export async function appendThreadMessage(
  input: { id: string; threadId: string; role: MessageRow['role']; parts: unknown[] },
  db: Db = getDb(),
): Promise<void> {
  await db.insert(agentMessages).values({
    ...input,
    parts: toPostgresJson(input.parts),
    seq: sql`(select coalesce(max(seq), -1) + 1 from agent_messages where thread_id = ${input.threadId})`,
  })
  await touchThread(input.threadId, db)
}

/**
 * Replaces the parts of a stored message (an assistant message continued after a confirmation).
 * Answers their stored size in bytes, as selectMessageSizes measures it, or undefined when the
 * thread has no such message.
 */
export async function updateMessageParts(
  threadId: string,
  id: string,
  parts: unknown[],
  db: Db = getDb(),
): Promise<number | undefined> {
  const [row] = await db
    .update(agentMessages)
    .set({ parts: toPostgresJson(parts) })
    .where(and(eq(agentMessages.id, id), eq(agentMessages.threadId, threadId)))
    .returning({ bytes: sql<number>`octet_length(${agentMessages.parts}::text)` })
  await touchThread(threadId, db)
  return row?.bytes
}

async function touchThread(threadId: string, db: Db) {
  await db
    .update(agentThreads)
    .set({ updatedAt: sql`now()` })
    .where(eq(agentThreads.id, threadId))
}

export type NewRunThread = {
  threadId: string
  runId: string
  orgId: string
  userId: string
  title: string
  instructions: string
}

/**
 * Creates the threads of runs that are starting, each with its prompt as the first message, and
 * links them to their runs: one statement for any number of runs (the claim does a batch at once).
 */
export async function createRunThreads(threads: NewRunThread[], db: Db = getDb()): Promise<void> {
  if (threads.length === 0) return
  const rows = JSON.stringify(
    threads.map((t) => ({
      thread_id: t.threadId,
      run_id: t.runId,
      message_id: newId('msg'),
      org_id: t.orgId,
      user_id: t.userId,
      title: toPostgresText(t.title),
      parts: [{ type: 'text', text: toPostgresText(t.instructions) }],
    })),
  )
  await queryRows(
    db,
    sql`with x as (
          select * from jsonb_to_recordset(${rows}::jsonb) as x(thread_id text, run_id text, message_id text,
            org_id text, user_id text, title text, parts jsonb)
        ), t as (
          insert into agent_threads (id, org_id, user_id, kind, title)
          select thread_id, org_id, user_id, 'run', title from x
        ), m as (
          insert into agent_messages (id, thread_id, seq, role, parts)
          select message_id, thread_id, 0, 'user', parts from x
        )
        update job_runs set thread_id = x.thread_id from x where job_runs.id = x.run_id`,
  )
}

/** How much of a run's instructions its thread keeps when the run ended before the model answered. */
export const UNANSWERED_INSTRUCTIONS_KEPT = 2_000

/**
 * Cuts the copy of the instructions a run's thread starts with to its first
 * UNANSWERED_INSTRUCTIONS_KEPT characters, saying how many more there were: for a run that ended
 * before the model answered (decision 0503). A failed call costs nothing (a key that is no key), so
 * a job of 60,000 characters failing on a schedule would otherwise store its copy at every fire.
 */
export async function keepInstructionsHead(threadId: string, db: Db = getDb()): Promise<void> {
  const text = sql`(parts -> 0 ->> 'text')`
  const kept = UNANSWERED_INSTRUCTIONS_KEPT
  await queryRows(
    db,
    sql`update agent_messages
        set parts = jsonb_build_array(jsonb_build_object('type', 'text', 'text',
          left(${text}, ${kept}::int) || ${'\n\n[and '} || (char_length(${text}) - ${kept}::int)
            || ${" more characters of the job's instructions, not kept: this run ended before the model answered]"}))
        where thread_id = ${threadId} and seq = 0 and role = 'user' and char_length(${text}) > ${kept}::int`,
  )
}

/** A running run's transcript so far is kept as drafts, told apart by their ids (final ones are `msg_…`). */
const DRAFT = 'draft_'

/**
 * Appends messages after the thread's last one. As drafts (a running run's latest report) they
 * follow the last message that is not a draft, and the i-th keeps its row (and place) from one
 * report to the next: a report overwrites the drafts before it.
 */
export async function appendTranscript(
  threadId: string,
  messages: ExecutorMessage[],
  db: Db = getDb(),
  { asDrafts = false }: { asDrafts?: boolean } = {},
): Promise<void> {
  if (messages.length === 0) return
  const rows = JSON.stringify(
    messages.map((m, i) => ({
      id: asDrafts ? `${DRAFT}${i}_${threadId}` : newId('msg'),
      n: i + 1,
      role: m.role,
      parts: toPostgresJson(m.parts),
    })),
  )
  const notDraft = asDrafts ? sql` and id not like ${`${DRAFT}%`}` : sql``
  const overwrite = asDrafts
    ? sql` on conflict (id) do update set parts = excluded.parts, role = excluded.role`
    : sql``
  await queryRows(
    db,
    sql`insert into agent_messages (id, thread_id, seq, role, parts)
        select x.id, ${threadId}, base.seq + x.n, x.role, x.parts
        from jsonb_to_recordset(${rows}::jsonb) as x(id text, n int, role text, parts jsonb),
          (select coalesce(max(seq), -1) as seq from agent_messages
            where thread_id = ${threadId}${notDraft}) as base${overwrite}`,
  )
}

/** Removes a thread's drafts (before its final transcript is appended). */
export async function deleteDrafts(threadId: string, db: Db = getDb()): Promise<void> {
  await db
    .delete(agentMessages)
    .where(and(eq(agentMessages.threadId, threadId), like(agentMessages.id, `${DRAFT}%`)))
}

/** The thread's messages in order. */
export async function readTranscript(threadId: string, db: Db = getDb()): Promise<TranscriptMessage[]> {
  const rows = await selectThreadMessages(threadId, db)
  return rows.map((m) => ({ id: m.id, role: m.role, parts: m.parts, createdAt: m.createdAt.toISOString() }))
}

/**
 * Gives runs that are starting their threads (kind 'run', the instructions as the first message),
 * in one statement inside the transaction that starts them; returns the runs with `threadId` set.
 */
export async function withRunThreads(started: StartedRun[], tx: Db): Promise<StartedRun[]> {
  const threads = started.map(({ run, job }) => ({
    threadId: newId('thr'),
    runId: run.id,
    orgId: job.orgId,
    userId: run.runAsUserId ?? job.createdBy,
    title: job.name,
    instructions: job.instructions,
  }))
  await createRunThreads(threads, tx)
  return started.map((s, i) => ({ ...s, run: { ...s.run, threadId: threads[i]!.threadId } }))
}
