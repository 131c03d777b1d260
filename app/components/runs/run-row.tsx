import { FileText } from 'lucide-react'
import { useEffect, useState } from 'react'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { Badge } from '#app/components/ui/card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { describeRunStatus } from '#app/lib/job-status.ts'
import { formatExact } from '#app/lib/time.ts'
import { describeTrigger, describeUsage, formatElapsed } from './format.ts'
import type { RunLike } from './types.ts'

/** Milliseconds since `start`, ticking every second (for a running run's live duration). */
function useElapsed(start: string | null, live: boolean): number | null {
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    if (!live) return
    const tick = () => setNow(Date.now())
    tick()
    const id = setInterval(tick, 1_000)
    return () => clearInterval(id)
  }, [live])
  return start && now !== null ? now - Date.parse(start) : null
}

/** One run: status, trigger, slot vs start, duration, usage, and why (reason, error). */
export function RunRow({ run, timeZone, onOpen }: { run: RunLike; timeZone: string; onOpen: () => void }) {
  const { label, tone } = describeRunStatus(run.status)
  const elapsed = useElapsed(run.startedAt, run.status === 'running')
  const late =
    run.startedAt && run.trigger !== 'manual'
      ? Date.parse(run.startedAt) - Date.parse(run.scheduledFor)
      : null
  const usage = describeUsage(run.usage)
  const duration =
    run.durationMs !== null
      ? formatElapsed(run.durationMs)
      : elapsed !== null
        ? `${formatElapsed(elapsed)} so far`
        : null
  return (
    <li
      data-testid="run-row"
      data-status={run.status}
      className="flex flex-wrap items-start gap-x-4 gap-y-1 py-3"
    >
      <div className="w-28 shrink-0">
        <Badge tone={tone}>{label}</Badge>
        <p className="mt-1 text-xs text-stone-500 dark:text-stone-400">{describeTrigger(run)}</p>
      </div>
      <dl className="grid min-w-0 flex-1 grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-stone-500 dark:text-stone-400">
          {run.trigger === 'manual' ? 'Requested' : 'Slot'}
        </dt>
        <dd>
          <RelativeTime value={run.scheduledFor} timeZone={timeZone} />
        </dd>
        {run.startedAt ? (
          <>
            <dt className="text-stone-500 dark:text-stone-400">Started</dt>
            <dd>
              <RelativeTime value={run.startedAt} timeZone={timeZone} />
              {late !== null && late >= 1_000 ? (
                <span className="text-stone-500 dark:text-stone-400">
                  {' '}
                  ({formatElapsed(late)} after its slot)
                </span>
              ) : null}
            </dd>
          </>
        ) : null}
        {duration ? (
          <>
            <dt className="text-stone-500 dark:text-stone-400">Duration</dt>
            <dd>{duration}</dd>
          </>
        ) : null}
        {usage ? (
          <>
            <dt className="text-stone-500 dark:text-stone-400">Tokens</dt>
            <dd>{usage}</dd>
          </>
        ) : null}
        {run.error ? (
          <>
            <dt className="text-stone-500 dark:text-stone-400">Error</dt>
            <dd className="break-words text-red-700 dark:text-red-400" data-testid="run-error">
              {run.error}
            </dd>
          </>
        ) : null}
        {run.reason ? (
          <>
            <dt className="text-stone-500 dark:text-stone-400">Why</dt>
            <dd className="break-words text-stone-700 dark:text-stone-300">{run.reason}</dd>
          </>
        ) : null}
      </dl>
      {run.startedAt ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={onOpen}
          aria-label={`Transcript of the ${label.toLowerCase()} run from ${formatExact(new Date(run.scheduledFor), { timeZone })}`}
        >
          <FileText className="size-4" aria-hidden /> Transcript
        </Button>
      ) : null}
    </li>
  )
}
