/**
 * A run's transcript while it runs. The executor reports what the run has said so far (each report
 * replaces the last); the latest is kept in the run's thread as draft messages, at most once a
 * second, so the run page (which reloads every 2 s while a run is active) shows its steps as they
 * happen. When the run ends its final transcript replaces the drafts; a run that ends without one
 * (timed out, stopped, its instance shutting down) keeps what it had reported.
 */
import { getDb, type Db } from '../db/client.ts'
import { logger } from '../lib/logger.ts'
import type { ExecutorMessage } from './executor.ts'
import { appendTranscript, deleteDrafts } from './threads.ts'

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
      .then(() => appendTranscript(threadId, messages, db, { asDrafts: true }))
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
        await deleteDrafts(threadId, tx)
        await appendTranscript(threadId, messages, tx)
      })
    },
  }
}
