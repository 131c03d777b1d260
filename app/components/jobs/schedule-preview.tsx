import { AlertCircle, CalendarClock, Loader2 } from 'lucide-react'
import { stripFieldPrefix } from '#app/lib/action-errors.ts'
import { browserTimeZone, formatExact } from '#app/lib/time.ts'
import type { PreviewState, SchedulePreview } from '#app/lib/use-schedule-preview.ts'

/** The invalid-schedule message, which the schedule input points at (one form per page). */
export const SCHEDULE_PREVIEW_ERROR_ID = 'schedule-preview-error'

/**
 * What a schedule means, live: its description and next five fire times in the job's zone (and
 * in the viewer's, when that differs). A polite live region, so screen readers hear the result.
 */
export function SchedulePreviewPanel({ preview, timezone }: { preview: PreviewState; timezone: string }) {
  return (
    <div
      aria-live="polite"
      data-testid="schedule-preview"
      className="rounded-lg border border-stone-200 bg-stone-50 px-4 py-3 text-sm dark:border-stone-800 dark:bg-stone-950/40"
    >
      {preview.state === 'empty' ? (
        <p className="text-stone-600 dark:text-stone-400">
          Pick a preset or type a cron expression to see when it runs.
        </p>
      ) : preview.state === 'failed' ? (
        <p className="flex items-center gap-2 text-amber-700 dark:text-amber-400">
          <AlertCircle className="size-4" aria-hidden /> {preview.message}
        </p>
      ) : preview.state === 'checking' ? (
        <>
          <p className="mb-1 flex items-center gap-2 text-stone-600 dark:text-stone-400">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Checking…
          </p>
          {preview.last ? <PreviewBody preview={preview.last} timezone={timezone} stale /> : null}
        </>
      ) : (
        <PreviewBody preview={preview.preview} timezone={timezone} />
      )}
    </div>
  )
}

function PreviewBody({
  preview,
  timezone,
  stale,
}: {
  preview: SchedulePreview
  timezone: string
  stale?: boolean
}) {
  if (!preview.valid) {
    return (
      <p
        id={SCHEDULE_PREVIEW_ERROR_ID}
        className="flex items-start gap-2 text-red-700 dark:text-red-400"
        data-testid="schedule-preview-error"
      >
        {/* "schedule: …" loses its prefix under the Schedule label, as a field's own message does. */}
        <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />{' '}
        {stripFieldPrefix(preview.message, 'schedule')}
      </p>
    )
  }
  const local = browserTimeZone()
  const showLocal = local !== timezone
  return (
    <div className={stale ? 'opacity-50' : undefined}>
      <p className="flex items-center gap-2 font-medium" data-testid="schedule-description">
        <CalendarClock className="size-4 text-brand-600" aria-hidden /> {preview.description}
      </p>
      {preview.nextRuns.length === 0 ? (
        // The preview looks 20 years ahead (PREVIEW_HORIZON_YEARS in server/jobs/preview.ts).
        <p className="mt-2 text-stone-600 dark:text-stone-400">
          This schedule does not fire in the next 20 years.
        </p>
      ) : (
        <table className="mt-2 w-full text-left text-xs">
          <caption className="sr-only">Next {preview.nextRuns.length} runs</caption>
          <thead className="text-stone-600 dark:text-stone-400">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Next runs ({timezone.replace(/_/g, ' ')})
              </th>
              {showLocal ? (
                <th scope="col" className="py-1 font-medium">
                  Your time ({local.replace(/_/g, ' ')})
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="font-mono tabular-nums">
            {preview.nextRuns.map((iso) => (
              <tr key={iso}>
                <td className="py-0.5">{formatExact(new Date(iso), { timeZone: timezone })}</td>
                {showLocal ? (
                  <td className="py-0.5 text-stone-600 dark:text-stone-400">
                    {formatExact(new Date(iso), { timeZone: local })}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
