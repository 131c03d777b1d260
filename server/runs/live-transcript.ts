/**
 * A run's transcript while it runs. The executor reports what the run has said so far (each report
 * replaces the last); the latest is kept in the run's thread as draft messages, at most once a
 * second, so the run page (which reloads every 2 s while a run is active) shows its steps as they
 * happen. When the run ends its final transcript replaces the drafts; a run that ends without one
 * (timed out, stopped, its instance shutting down) keeps what it had reported.
 */
import { and, eq, like, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { agentMessages } from '../db/schema/app.ts'
import { queryRows } from '../db/sql.ts'
import { toPostgresJson } from '../db/text.ts'
import { logger } from '../lib/logger.ts'
import type { ExecutorMessage } from './executor.ts'
import { appendTranscript } from './threads.ts'

/** Draft messages are told apart by their ids (the final ones are `msg_…`). */
const DRAFT = 'draft_'
/** At most one write a second per run: a long run reports after every step and every chunk. */
const WRITE_EVERY_MS = 1_000

export type LiveTranscript = {
  /** What the run has said so far; written soon, replacing the last report. */
  report: (messages: ExecutorMessage[]) => void
  /** Ends the run's reports: its final transcript (if any) replaces the drafts. */
  finish: (messages: ExecutorMessage[]) => Promise<void>
}

export function createLiveTranscript(threadId: string, db: Db = getDb()): LiveTranscript {
  let latest: ExecutorMessage[] | null = null
  let writing: Promise<void> = Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | null = null
  let lastWrite = 0
  let finished = false
  const flush = () => {
    timer = null
    const messages = latest
    latest = null
    if (!messages || finished) return
    lastWrite = Date.now()
    writing = writing
      .then(() => writeDrafts(threadId, messages, db))
      .catch((err: unknown) => logger.warn({ err, threadId }, 'could not keep a running run’s transcript'))
  }
  return {
    report(messages) {
      if (finished) return
      latest = messages
      if (timer) return
      timer = setTimeout(flush, Math.max(0, lastWrite + WRITE_EVERY_MS - Date.now()))
      timer.unref?.()
    },
    async finish(messages) {
      finished = true
      if (timer) clearTimeout(timer)
      await writing
      if (messages.length === 0) return
      await db.transaction(async (tx) => {
        await tx
          .delete(agentMessages)
          .where(and(eq(agentMessages.threadId, threadId), like(agentMessages.id, `${DRAFT}%`)))
        await appendTranscript(threadId, messages, tx)
      })
    },
  }
}

/** The drafts become `messages`: the i-th keeps its row (and place) from one report to the next. */
async function writeDrafts(threadId: string, messages: ExecutorMessage[], db: Db) {
  const rows = JSON.stringify(
    messages.map((m, i) => ({
      id: `${DRAFT}${i}_${threadId}`,
      n: i + 1,
      role: m.role,
      parts: toPostgresJson(m.parts),
    })),
  )
  await queryRows(
    db,
    sql`insert into agent_messages (id, thread_id, seq, role, parts)
        select x.id, ${threadId}, base.seq + x.n, x.role, x.parts
        from jsonb_to_recordset(${rows}::jsonb) as x(id text, n int, role text, parts jsonb),
          (select coalesce(max(seq), -1) as seq from agent_messages
            where thread_id = ${threadId} and id not like ${`${DRAFT}%`}) as base
        on conflict (id) do update set parts = excluded.parts, role = excluded.role`,
  )
}
