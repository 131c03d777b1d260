/**
 * A run's transcript is an agent thread of kind 'run': the job's instructions as the first
 * user message, then whatever the executor produced. The agent issue builds on the same tables.
 */
import { asc, eq, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { agentMessages } from '../db/schema/app.ts'
import type { ExecutorMessage } from './executor.ts'
import { newId } from '../lib/ids.ts'
import { queryRows } from '../db/sql.ts'
import type { TranscriptMessage } from './schema.ts'

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
      title: t.title,
      parts: [{ type: 'text', text: t.instructions }],
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

/** Appends messages after the thread's last one. */
export async function appendTranscript(
  threadId: string,
  messages: ExecutorMessage[],
  db: Db = getDb(),
): Promise<void> {
  if (messages.length === 0) return
  const rows = JSON.stringify(
    messages.map((m, i) => ({ id: newId('msg'), n: i + 1, role: m.role, parts: m.parts })),
  )
  await queryRows(
    db,
    sql`insert into agent_messages (id, thread_id, seq, role, parts)
        select x.id, ${threadId}, base.seq + x.n, x.role, x.parts
        from jsonb_to_recordset(${rows}::jsonb) as x(id text, n int, role text, parts jsonb),
          (select coalesce(max(seq), -1) as seq from agent_messages where thread_id = ${threadId}) as base`,
  )
}

/** The thread's messages in order. */
export async function readTranscript(threadId: string, db: Db = getDb()): Promise<TranscriptMessage[]> {
  const rows = await db
    .select()
    .from(agentMessages)
    .where(eq(agentMessages.threadId, threadId))
    .orderBy(asc(agentMessages.seq))
  return rows.map((m) => ({ id: m.id, role: m.role, parts: m.parts, createdAt: m.createdAt.toISOString() }))
}
