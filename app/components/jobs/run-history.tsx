import { History } from 'lucide-react'
import { useState } from 'react'
import { useRouteLoaderData } from 'react-router'
import { RunNowButton } from '#app/components/runs/run-now-button.tsx'
import { RunsTable } from '#app/components/runs/runs-table.tsx'
import type { RunLike } from '#app/components/runs/types.ts'
import { useRunHistory } from '#app/components/runs/use-run-history.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'

type JobPageData = { job: { canEdit: boolean; timezone: string } }

/** The filter's choices: one status, or "failed" for every kind of failure. */
const FILTERS = {
  all: { label: 'All statuses', match: () => true },
  active: { label: 'Queued or running', match: (s: string) => s === 'queued' || s === 'running' },
  success: { label: 'Succeeded', match: (s: string) => s === 'success' },
  failed: {
    label: 'Failed',
    match: (s: string) => ['error', 'timed_out', 'interrupted'].includes(s),
  },
  cancelled: { label: 'Cancelled', match: (s: string) => s === 'cancelled' },
  'not-run': { label: 'Skipped or missed', match: (s: string) => s === 'skipped' || s === 'missed' },
} as const
type Filter = keyof typeof FILTERS

/**
 * The job's run history as a table (each run links to its own page), filtered by status over the
 * pages loaded so far; running runs update live (polling). `runs` is the loader's first page
 * (server/pages/run-history.ts). Run now sits here too.
 */
export function RunHistory({ jobId, runs: initial }: { jobId: string; runs: readonly unknown[] }) {
  const page = useRouteLoaderData<JobPageData>('routes/_app.jobs.$id')
  const history = useRunHistory(jobId, initial as RunLike[])
  const [filter, setFilter] = useState<Filter>('all')
  const timeZone = page?.job.timezone ?? 'UTC'
  const shown = history.runs.filter((run) => FILTERS[filter].match(run.status))
  return (
    <Card className="p-5" data-job-id={jobId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 font-semibold">
          <History className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> Run history
        </h2>
        <div className="flex items-center gap-2">
          <label className="sr-only" htmlFor="run-filter">
            Show runs
          </label>
          <select
            id="run-filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value as Filter)}
            className="h-8 rounded-md border border-stone-300 bg-white px-2 text-sm dark:border-stone-700 dark:bg-stone-900"
          >
            {Object.entries(FILTERS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {page?.job.canEdit ? <RunNowButton jobId={jobId} onQueued={() => void history.refresh()} /> : null}
        </div>
      </div>
      {history.error ? (
        <p role="status" className="mt-2 text-sm text-amber-700 dark:text-amber-400">
          Could not refresh the history: {history.error}
        </p>
      ) : null}
      {history.runs.length === 0 ? (
        <div className="mt-4 rounded-lg border border-dashed border-stone-300 px-4 py-8 text-center dark:border-stone-700">
          <p className="text-sm font-medium">No runs yet</p>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Each run, with its transcript, status and duration, shows up here once the job fires
            {page?.job.canEdit ? ' or you press Run now' : ''}.
          </p>
        </div>
      ) : shown.length === 0 ? (
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          No {FILTERS[filter].label.toLowerCase()} runs among the {history.runs.length} loaded
          {history.hasMore ? '; load older runs to look further back' : ''}.
        </p>
      ) : (
        <div className="mt-2">
          <RunsTable jobId={jobId} runs={shown} timeZone={timeZone} />
        </div>
      )}
      {history.hasMore ? (
        <Button
          variant="ghost"
          size="sm"
          className="mt-2"
          busy={history.loadingOlder}
          busyLabel="Loading…"
          onClick={() => void history.loadOlder()}
        >
          Load older runs
        </Button>
      ) : null}
    </Card>
  )
}
