import { describeRunStatus, type StatusTone } from '#app/lib/job-status.ts'
import { cn } from '#app/lib/cn.ts'

// A dot says its status by colour alone: each stands out 3:1 from the row in both themes (WCAG
// 1.4.11), hence the darker shades on white.
const DOT: Record<StatusTone, string> = {
  green: 'bg-emerald-600 dark:bg-emerald-500',
  red: 'bg-red-600 dark:bg-red-500',
  amber: 'bg-amber-600 dark:bg-amber-500',
  blue: 'bg-sky-600 dark:bg-sky-500',
  brand: 'bg-brand-600 dark:bg-brand-500',
  neutral: 'bg-stone-500 dark:bg-stone-400',
}

// One formatter for every dot (toLocaleString builds a new one per call): the same text it gives.
const STAMP = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

export type RecentRun = { id: string; status: string; scheduledFor: string }

/**
 * A job's latest runs as dots, oldest to newest; each links to its run page (a list link: the jobs
 * table navigates them in the app, app/lib/use-list-links.ts).
 */
export function RunDots({ jobId, runs }: { jobId: string; runs: readonly RecentRun[] }) {
  if (runs.length === 0) return null
  return (
    <ul className="flex items-center gap-1" aria-label="Latest runs, oldest first" data-testid="run-dots">
      {[...runs].reverse().map((run) => {
        const { label, tone } = describeRunStatus(run.status)
        return (
          <li key={run.id} className="flex">
            <a
              href={`/jobs/${encodeURIComponent(jobId)}/runs/${encodeURIComponent(run.id)}`}
              data-list-link
              title={`${label} · ${STAMP.format(new Date(run.scheduledFor))}`}
              aria-label={label}
              data-status={run.status}
              className={cn('block size-2.5 rounded-full', DOT[tone])}
            />
          </li>
        )
      })}
    </ul>
  )
}
