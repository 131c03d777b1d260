import { useEffect, useState } from 'react'

/** What the preview endpoint says about a schedule (server/jobs/service.ts previewSchedule). */
export type SchedulePreview =
  { valid: true; description: string; nextRuns: string[] } | { valid: false; field: string; message: string }

export type PreviewState =
  | { state: 'empty' }
  | { state: 'checking'; last: SchedulePreview | null }
  | { state: 'done'; preview: SchedulePreview }
  | { state: 'failed'; message: string }

type Answer = { key: string; preview: SchedulePreview } | { key: string; failed: string }

/** Long enough to skip the keystrokes of a word, short enough to feel live. */
const DEBOUNCE_MS = 250

/**
 * Asks the server what a schedule means (description and next fire times) while the person
 * types: debounced, and answers are matched to the input they were for, so a slow reply never
 * shows for newer text ("checking…" until the right one arrives).
 */
export function useSchedulePreview(schedule: string, timezone: string): PreviewState {
  const key = `${schedule.trim()}\n${timezone}`
  const [answer, setAnswer] = useState<Answer | null>(null)
  useEffect(() => {
    if (!schedule.trim()) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      fetchPreview(schedule.trim(), timezone, controller.signal)
        .then((preview) => setAnswer({ key, preview }))
        .catch((err: unknown) => {
          if (controller.signal.aborted) return
          setAnswer({ key, failed: err instanceof Error ? err.message : 'Could not check the schedule' })
        })
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [key, schedule, timezone])

  if (!schedule.trim()) return { state: 'empty' }
  if (answer?.key === key) {
    return 'preview' in answer
      ? { state: 'done', preview: answer.preview }
      : { state: 'failed', message: answer.failed }
  }
  return { state: 'checking', last: answer && 'preview' in answer ? answer.preview : null }
}

async function fetchPreview(
  schedule: string,
  timezone: string,
  signal: AbortSignal,
): Promise<SchedulePreview> {
  const params = new URLSearchParams({ schedule, timezone })
  const res = await fetch(`/_agent-native/schedule/preview?${params}`, {
    signal,
    headers: { accept: 'application/json' },
  })
  const body = (await res.json().catch(() => null)) as
    SchedulePreview | { error?: { message?: string; field?: string } } | null
  if (body && 'valid' in body) return body
  // A 400 for a bad zone or cron still belongs in the preview, next to the field.
  if (res.status === 400 && body && 'error' in body && body.error?.message) {
    return { valid: false, field: body.error.field ?? 'schedule', message: body.error.message }
  }
  throw new Error(
    body && 'error' in body && body.error?.message
      ? body.error.message
      : `Could not check the schedule (HTTP ${res.status})`,
  )
}
