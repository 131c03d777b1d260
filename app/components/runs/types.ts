/**
 * A run as the pages see it: the API's Run (server/runs/schema.ts), structurally, so components
 * never import server code.
 */
export type RunLike = {
  id: string
  jobId: string
  trigger: 'schedule' | 'manual' | 'retry' | 'catch-up'
  scheduledFor: string
  status: 'queued' | 'running' | 'success' | 'error' | 'timed_out' | 'interrupted' | 'skipped' | 'missed'
  reason: string | null
  attempt: number
  startedAt: string | null
  finishedAt: string | null
  durationMs: number | null
  error: string | null
  usage: { inputTokens: number | null; outputTokens: number | null; costUsd?: number | null }
  instance: string | null
}

export type TranscriptEntry = {
  id: string
  role: 'system' | 'user' | 'assistant' | 'tool'
  parts: unknown[]
  createdAt: string
}

/** The first page of history, as the job page's loader hands it over (loosely typed there). */
export const RUN_PAGE_SIZE = 20

export const isActive = (run: Pick<RunLike, 'status'>) => run.status === 'queued' || run.status === 'running'
