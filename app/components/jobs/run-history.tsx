import { History } from 'lucide-react'
import { useState } from 'react'
import { useRouteLoaderData } from 'react-router'
import { RunNowButton } from '#app/components/runs/run-now-button.tsx'
import { RunRow } from '#app/components/runs/run-row.tsx'
import { TranscriptDialog } from '#app/components/runs/transcript-dialog.tsx'
import type { RunLike } from '#app/components/runs/types.ts'
import { useRunHistory } from '#app/components/runs/use-run-history.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'

type JobPageData = { job: { canEdit: boolean; timezone: string } }

/**
 * The job's run history: every slot with its status, scheduled vs started time, duration, usage,
 * error and reason; a run's transcript opens in a dialog; running runs update live (polling).
 * `runs` is the loader's first page (server/pages/run-history.ts). Run now sits here too.
 */
export function RunHistory({ jobId, runs: initial }: { jobId: string; runs: readonly unknown[] }) {
  const page = useRouteLoaderData<JobPageData>('routes/_app.jobs.$id')
  const history = useRunHistory(jobId, initial as RunLike[])
  const [open, setOpen] = useState<string | null>(null)
  const timeZone = page?.job.timezone ?? 'UTC'
  return (
    <Card className="p-5" data-job-id={jobId}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 font-semibold">
          <History className="size-4 text-stone-500" aria-hidden /> Run history
        </h2>
        {page?.job.canEdit ? <RunNowButton jobId={jobId} onQueued={() => void history.refresh()} /> : null}
      </div>
      {history.error ? (
        <p role="status" className="mt-2 text-sm text-amber-700 dark:text-amber-400">
          Could not refresh the history: {history.error}
        </p>
      ) : null}
      {history.runs.length === 0 ? (
        <div className="mt-4 rounded-lg border border-dashed border-stone-300 px-4 py-8 text-center dark:border-stone-700">
          <p className="text-sm font-medium">No runs yet</p>
          <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
            Each run, with its transcript, status and duration, shows up here once the job fires
            {page?.job.canEdit ? ' or you press Run now' : ''}.
          </p>
        </div>
      ) : (
        <ul aria-label="Runs, newest first" className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
          {history.runs.map((run) => (
            <RunRow key={run.id} run={run} timeZone={timeZone} onOpen={() => setOpen(run.id)} />
          ))}
        </ul>
      )}
      {history.hasMore ? (
        <Button
          variant="ghost"
          size="sm"
          className="mt-2"
          disabled={history.loadingOlder}
          onClick={() => void history.loadOlder()}
        >
          {history.loadingOlder ? 'Loading…' : 'Load older runs'}
        </Button>
      ) : null}
      <TranscriptDialog runId={open} timeZone={timeZone} onClose={() => setOpen(null)} />
    </Card>
  )
}
