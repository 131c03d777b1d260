import { useHydrated } from '#app/lib/hydrated.ts'
import { describeRunStatus, type StatusTone } from '#app/lib/job-status.ts'

// A dot says its status by colour alone: each stands out 3:1 from the row in both themes (WCAG
// 1.4.11), hence the darker shades on white. Whole class names, built once (a list renders 250).
const DOT: Record<StatusTone, string> = {
  green: 'block size-2.5 rounded-full bg-emerald-600 dark:bg-emerald-500',
  red: 'block size-2.5 rounded-full bg-red-600 dark:bg-red-500',
  amber: 'block size-2.5 rounded-full bg-amber-600 dark:bg-amber-500',
  blue: 'block size-2.5 rounded-full bg-sky-600 dark:bg-sky-500',
  brand: 'block size-2.5 rounded-full bg-brand-600 dark:bg-brand-500',
  neutral: 'block size-2.5 rounded-full bg-stone-500 dark:bg-stone-400',
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * "01/12/2026, 07:00:00" in the browser's zone, or "01/12/2026, 06:00:00 UTC" before hydration (the
 * server does not know the viewer's zone, and a title attribute that differs between the server's
 * HTML and the first client render is not corrected by React). What an en-GB Intl.DateTimeFormat
 * gives, at a third of its cost (a jobs list formats 250 of these per render).
 */
function stamp(date: Date, local: boolean): string {
  if (!local) {
    const day = `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`
    return `${day}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} UTC`
  }
  const day = `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`
  return `${day}, ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

export type RecentRun = { id: string; status: string; scheduledFor: string }

/**
 * A job's latest runs as dots, oldest to newest; each links to its run page (a list link: the jobs
 * table navigates them in the app, app/lib/use-list-links.ts).
 */
export function RunDots({ jobId, runs }: { jobId: string; runs: readonly RecentRun[] }) {
  const hydrated = useHydrated()
  if (runs.length === 0) return null
  return (
    <ul className="flex items-center gap-1" aria-label="Latest runs, oldest first" data-testid="run-dots">
      {[...runs].reverse().map((run) => {
        const { label, tone } = describeRunStatus(run.status)
        return (
          <li key={run.id}>
            <a
              href={`/jobs/${encodeURIComponent(jobId)}/runs/${encodeURIComponent(run.id)}`}
              data-list-link
              title={`${label} · ${stamp(new Date(run.scheduledFor), hydrated)}`}
              aria-label={label}
              data-status={run.status}
              className={DOT[tone]}
            />
          </li>
        )
      })}
    </ul>
  )
}
