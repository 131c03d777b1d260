/**
 * Run outcomes in plain words, for sentences people read (alerts, deliveries, reasons, logs):
 * "The last run timed out", never "ended timed_out".
 */
import { formatDuration } from './format.ts'

const ENDED: Record<string, string> = {
  success: 'succeeded',
  error: 'failed',
  timed_out: 'timed out',
  interrupted: 'was interrupted',
  cancelled: 'was cancelled',
  skipped: 'was skipped',
  missed: 'was missed',
  running: 'is still running',
  queued: 'is waiting to start',
}

/** How a run ended, as a verb phrase: "succeeded", "timed out", "was interrupted". */
export function runEndedWords(status: string): string {
  return ENDED[status] ?? status.replace(/_/g, ' ')
}

/** "3 s", "2 min", or "no time" for a run that never started. */
export function runDurationWords(durationMs: number | null): string {
  return durationMs === null ? 'no time' : durationMs < 1000 ? `${durationMs} ms` : formatDuration(durationMs)
}

/** "$0.0123", or "no cost recorded" when the model reported no usage. */
export function runCostWords(costUsd: number | string | null): string {
  if (costUsd === null) return 'no cost recorded'
  const n = Number(costUsd)
  return `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`
}
